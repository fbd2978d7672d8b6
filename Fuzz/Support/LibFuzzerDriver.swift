import CLibFuzzer

/// Hands control to libFuzzer with `testOneInput` as the target, passing the command line on.
/// Fuzz targets call it from their top-level code (see Fuzz/README.md for why not libFuzzer's
/// own `main`).
public func runLibFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
}
