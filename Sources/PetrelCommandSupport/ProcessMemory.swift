import CPetrelMalloc

/// How the process's allocator gives memory back: a choice for executables,
/// which own the process (a library must not change it under its host).
public enum ProcessMemory {
    /// Serves every block of 1 MiB or more from its own mapping, returned to
    /// the system when freed.
    ///
    /// glibc raises its mapping threshold each time such a block is freed
    /// (up to 32 MiB), after which the large texts of an update come from
    /// the heap, whose freed pages mostly stay with the process: peak memory
    /// then climbs with each large document instead of coming back after
    /// it. On the 564 MB Debian tree, petrel-index peaked at 156–164 MiB
    /// with glibc's default and at 122 MiB with this, in the same time.
    /// Does nothing on other C libraries.
    ///
    /// - returns: Whether the C library took the setting.
    @discardableResult
    public static func returnLargeBlocksToTheSystem() -> Bool {
        petrel_map_allocations_from(1 << 20) == 1
    }
}
