#ifndef PETREL_FUZZ_DRIVER_H
#define PETREL_FUZZ_DRIVER_H

/// Runs libFuzzer on the target's `LLVMFuzzerTestOneInput` with the
/// process's arguments, and returns its exit status.
int petrel_fuzz_run(int argc, char **argv);

#endif
