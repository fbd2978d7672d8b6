#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's documented entry for programs that keep their own main (compiler-rt
/// FuzzerInterface.h). SwiftPM links every executable with `main` aliased to
/// `<Target>_main`, so libFuzzer's main never runs; our entry calls this instead.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
