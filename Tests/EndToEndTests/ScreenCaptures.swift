import Foundation
import Testing

/// Every screen one tmux session captured, in order, so a failed journey can be read
/// afterwards screen by screen. Nothing touches the disk while the journey goes well; when a
/// wait times out or a check fails, `keep` writes the captures as text files to
/// `<test output>/journeys/<journey>/<nn>-<session>-<label>.txt`.
final class ScreenCaptures {
    struct Capture {
        let label: String
        let text: String
        /// A poll that saw the same screen again counts here instead of adding a capture, so
        /// a ten-second wait on a still screen is one file, not two hundred.
        var times: Int
    }

    let journey: String
    /// Which session of the journey took them ("app", "settings"…), part of every file name.
    let session: String
    /// `<test output>/journeys/<journey>`.
    let folder: URL
    private(set) var all: [Capture] = []
    /// Captures already written by an earlier `keep` of this session.
    private var written = 0

    /// The test-output folder: `WONDERLAND_TEST_OUTPUT`, else `.build/test-output` in the
    /// package (the folder `swift test` runs in).
    static var defaultOutput: URL {
        if let path = ProcessInfo.processInfo.environment["WONDERLAND_TEST_OUTPUT"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/test-output")
    }

    /// The running test's function name ("samePlaceAtAnotherWidth"), else `fallback`.
    static func currentJourney(fallback: String) -> String {
        Test.current.map { fileName($0.name) } ?? fallback
    }

    init(journey: String, session: String, output: URL = ScreenCaptures.defaultOutput) {
        self.journey = Self.fileName(journey)
        self.session = Self.fileName(session)
        folder = output.appendingPathComponent("journeys").appendingPathComponent(self.journey)
    }

    func record(_ text: String, label: String) {
        if let last = all.last, last.text == text, last.label == label, all.count > written {
            all[all.count - 1].times += 1
        } else {
            all.append(Capture(label: label, text: text, times: 1))
        }
    }

    /// Writes the captures not written yet (every one, the first time) and returns the folder.
    /// The folder is emptied the first time a run of the tests writes into it, so it never
    /// mixes screens of an earlier run with this one.
    @discardableResult
    func keep() throws -> URL {
        let fileManager = FileManager.default
        try JourneyFolders.shared.prepare(folder)
        for capture in all[written...] {
            let number = JourneyFolders.shared.nextNumber(in: folder)
            let name = String(format: "%02d", number) + "-\(session)-\(Self.fileName(capture.label)).txt"
            let header = "journey \(journey), session \(session): \(capture.label)"
                + (capture.times > 1 ? " (the same screen \(capture.times) times in a row)" : "") + "\n"
            guard fileManager.createFile(atPath: folder.appendingPathComponent(name).path,
                                         contents: Data((header + String(repeating: "─", count: 40) + "\n" + capture.text).utf8)) else {
                throw E2EError("cannot write \(name) in \(folder.path)")
            }
        }
        written = all.count
        return folder
    }

    /// A label as a file-name part: lower case letters, digits and dashes, at most 60 of them.
    static func fileName(_ label: String) -> String {
        var result = ""
        for character in label.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                result.append(character)
            } else if !result.hasSuffix("-") {
                result.append("-")
            }
        }
        let dashes = CharacterSet(charactersIn: "-")
        let trimmed = String(result.trimmingCharacters(in: dashes).prefix(60)).trimmingCharacters(in: dashes)
        return trimmed.isEmpty ? "screen" : trimmed
    }
}

/// The journey folders this test process has written to, and the next file number in each:
/// several sessions of one journey (a relaunch in a new terminal, a second pane) number their
/// files in one sequence. Tests run in parallel, hence the lock.
final class JourneyFolders: @unchecked Sendable {
    static let shared = JourneyFolders()
    private let lock = NSLock()
    private var numbers: [String: Int] = [:]

    func prepare(_ folder: URL) throws {
        lock.lock()
        defer { lock.unlock() }
        guard numbers[folder.path] == nil else { return }
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        numbers[folder.path] = 0
    }

    func nextNumber(in folder: URL) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let number = (numbers[folder.path] ?? 0) + 1
        numbers[folder.path] = number
        return number
    }
}
