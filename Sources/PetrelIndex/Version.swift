/// The version of the Petrel package, kept in one place.
///
/// `petrel-index --version` and `petrel-search --version` print it, and
/// CHANGELOG.md has an entry for each version it has had. It follows
/// semantic versioning: while the major version is 0, a minor version may
/// change the API.
public enum PetrelRelease {
    /// The package's version, such as `0.1.0`.
    public static let version = "0.1.0"
}
