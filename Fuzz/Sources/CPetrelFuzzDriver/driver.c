// libFuzzer's driver, called from the target's Swift entry point: SwiftPM
// renames an executable's `main` to its own entry point, so libFuzzer's
// `main` cannot be the program's, and the target calls the driver itself.
#include <stddef.h>
#include <stdint.h>
#include "petrel_fuzz_driver.h"

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int petrel_fuzz_run(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
