import Foundation
import Testing

// Running `wonderland plist`: the built binary sits beside this test bundle.

struct PlistRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

func wonderland(_ arguments: String...) throws -> PlistRun { try wonderland(arguments) }

func wonderlandBinary() throws -> URL {
    let directory = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
    let binary = directory.appendingPathComponent("wonderland")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no wonderland binary at \(binary.path)")
    return binary
}

func wonderland(_ arguments: [String]) throws -> PlistRun {
    try run(try wonderlandBinary(), ["plist"] + arguments)
}

/// `executable ARGUMENTS`, its standard input set up by `input` (nothing: the test's own).
func run(_ executable: URL, _ arguments: [String], input: ((Process) throws -> Void)? = nil) throws -> PlistRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    try input?(process)
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return PlistRun(status: process.terminationStatus, stdout: stdout, stderr: stderr)
}

/// A fresh directory per test, removed afterwards.
func withDirectory(_ body: (URL) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plist-cmd-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(directory)
}
