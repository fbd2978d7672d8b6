#if canImport(Glibc)
import Glibc
#endif
@testable import Terminal
import Testing

/// Standard error while curses has the screen: kept off the frame, written back at the end.
@Suite("Standard error capture", .serialized)
struct StderrCaptureTests {
    /// The process's standard error pointed at a pipe until `stop`. Other output of the test
    /// process in that moment may land there too, so tests look for their own words.
    private final class StandardErrorPipe {
        private let readEnd: Int32, writeEnd: Int32, saved: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            (readEnd, writeEnd) = (ends[0], ends[1])
            _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
            saved = dup(STDERR_FILENO)
            dup2(writeEnd, STDERR_FILENO)
        }

        /// What reached the pipe so far.
        func available() -> String {
            var collected: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(readEnd, &chunk, chunk.count)
                if count <= 0 { break }
                collected += chunk[0..<count]
            }
            return String(decoding: collected, as: UTF8.self)
        }

        func stop() -> String {
            dup2(saved, STDERR_FILENO)
            close(saved)
            close(writeEnd)
            defer { close(readEnd) }
            return available()
        }
    }

    private func writeToStandardError(_ text: String) {
        var line = text
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// The test runner writes its own progress to standard error from other threads, and a
    /// burst of it while capturing can fill the capture past its trim size and push the test's
    /// words out: each check is given a few tries, and must hold in one of them.
    private func holdsInOneOf(_ tries: Int, _ attempt: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<tries where try attempt() { return true }
        return false
    }

    @Test func whatIsWrittenWhileCapturingArrivesAtTheEndWithControlsShown() throws {
        var last = ""
        let held = try holdsInOneOf(5) {
            let standardError = try StandardErrorPipe()
            StderrCapture.begin()
            writeToStandardError("Fatal error: Index out of range \u{1B}[2J\u{9B}31m\n")
            let whileCapturing = standardError.available()
            StderrCapture.end()
            last = standardError.stop()
            return !whileCapturing.contains("Fatal error") && last.contains("Fatal error: Index out of range ?[2J??31m\n")
        }
        #expect(held, "the captured line did not arrive at the end, or arrived early: \(last.suffix(400))")
    }

    @Test func aChattyWriterIsTrimmedAndOnlyTheEndIsWrittenBack() throws {
        var last = ""
        let held = try holdsInOneOf(5) {
            let standardError = try StandardErrorPipe()
            StderrCapture.begin()
            let line = String(repeating: "x", count: 1023) + "\n"
            for _ in 0..<(StderrCapture.trimBytes / 1024 + 8) { writeToStandardError(line) }
            StderrCapture.trim()
            writeToStandardError("last words\n")
            StderrCapture.end()
            last = standardError.stop()
            return last.hasSuffix("last words\n") && last.utf8.count < 1024 + "last words\n".utf8.count
        }
        #expect(held, "the end was not written back alone: \(last.utf8.count) bytes ending \(last.suffix(200))")
    }
}
