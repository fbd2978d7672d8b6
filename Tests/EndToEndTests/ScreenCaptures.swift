import Foundation
import Testing

/// Every screen one tmux session captured, in order, so a failed journey can be read
/// afterwards screen by screen. Nothing touches the disk while the journey goes well; when a
/// wait times out or a check fails, `keep` writes the captures of every session of the journey
/// (the terminal before a relaunch too) as text files to
/// `<test output>/journeys/<journey>/<nn>-<session>-<label>.txt`, in the order they were taken.
final class ScreenCaptures {
    struct Capture {
        /// Orders the captures of the journey's sessions among each other.
        let sequence: Int
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
    /// How many of `all` an earlier `keep` wrote.
    fileprivate var writtenCount = 0

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
        JourneyFolders.shared.register(self)
    }

    func record(_ text: String, label: String) {
        if let last = all.last, last.text == text, last.label == label {
            all[all.count - 1].times += 1
        } else {
            all.append(Capture(sequence: JourneyFolders.shared.nextSequence(), label: label, text: text, times: 1))
        }
    }

    /// Writes the captures of the journey not written yet (every one, the first time) and
    /// returns the folder.
    @discardableResult
    func keep() throws -> URL {
        try JourneyFolders.shared.keep(folder)
        return folder
    }

    fileprivate func write(_ capture: Capture, number: Int) throws {
        let name = String(format: "%02d", number) + "-\(session)-\(Self.fileName(capture.label)).txt"
        let header = "journey \(journey), session \(session): \(capture.label)"
            + (capture.times > 1 ? " (the same screen \(capture.times) times in a row)" : "") + "\n"
        let contents = header + String(repeating: "─", count: 40) + "\n" + capture.text
        guard FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data(contents.utf8)) else {
            throw E2EError("cannot write \(name) in \(folder.path)")
        }
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

/// The sessions of every journey of this test process, so a failure in one terminal keeps the
/// screens of the terminal before the relaunch as well, all numbered in one sequence. A folder
/// is emptied the first time this process writes to it, so it never mixes two runs' screens.
/// Tests run in parallel, hence the lock; one journey's sessions live on one test's thread.
final class JourneyFolders: @unchecked Sendable {
    static let shared = JourneyFolders()
    private let lock = NSLock()
    private var sessions: [String: [ScreenCaptures]] = [:]
    private var numbers: [String: Int] = [:]
    private var sequence = 0

    func register(_ captures: ScreenCaptures) {
        lock.lock()
        defer { lock.unlock() }
        sessions[captures.folder.path, default: []].append(captures)
    }

    func nextSequence() -> Int {
        lock.lock()
        defer { lock.unlock() }
        sequence += 1
        return sequence
    }

    func keep(_ folder: URL) throws {
        lock.lock()
        defer { lock.unlock() }
        if numbers[folder.path] == nil {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            numbers[folder.path] = 0
        }
        let journey = sessions[folder.path] ?? []
        let pending = journey.flatMap { session in session.all[session.writtenCount...].map { (session, $0) } }
            .sorted { $0.1.sequence < $1.1.sequence }
        for (session, capture) in pending {
            let number = numbers[folder.path, default: 0] + 1
            numbers[folder.path] = number
            try session.write(capture, number: number)
        }
        for session in journey { session.writtenCount = session.all.count }
    }
}
