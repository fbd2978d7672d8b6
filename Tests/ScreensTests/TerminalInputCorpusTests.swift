import Testing
import Screens
@testable import Terminal

/// What thirteen real terminals send — keys in keypad transmit mode and outside it, the mouse,
/// replies — from the files in Tests/TerminalTests/Fixtures/input-corpus, each saying where its
/// rows come from. Every row is decoded with that terminal's own terminfo entry, as the app reads
/// it at start, and must give the events the file names (`-` for none), in the names the help
/// shows keys by.
@Suite("Input corpus of real terminals", .requires(.corpusTerminfoEntries))
struct TerminalInputCorpusTests {
    struct Row: CustomStringConvertible {
        var file: String
        var term: String
        var description: String
        var bytes: [UInt8]
        var expected: [String]
    }

    static let folder: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/TerminalTests/Fixtures/input-corpus"
    }()

    static let files = ["xterm", "kitty", "alacritty", "foot", "urxvt", "st", "linux", "tmux", "screen",
                        "vte", "windows-terminal", "nsterm", "iterm2"]

    static func rows(of file: String) throws -> [Row] {
        let text = try String(contentsOfFile: folder + "/" + file + ".txt", encoding: .utf8)
        var term = ""
        var rows: [Row] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# term:") { term = line.dropFirst(7).trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("#") { continue }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count == 3 else { continue }
            let expected = columns[2] == "-" ? [] : columns[2].split(separator: " ").map(String.init)
            rows.append(Row(file: file, term: term, description: String(columns[0]), bytes: unescape(columns[1]), expected: expected))
        }
        return rows
    }

    /// `\e`, `\xHH`, `\t`, `\r`, `\n`, `\a` and `\\` as the files write bytes; the rest as UTF-8.
    static func unescape(_ text: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        var characters = Array(text.utf8)[...]
        while let byte = characters.popFirst() {
            guard byte == 0x5C, let next = characters.popFirst() else { bytes.append(byte); continue }
            switch next {
            case 0x65: bytes.append(0x1B)  // e
            case 0x74: bytes.append(0x09)  // t
            case 0x72: bytes.append(0x0D)  // r
            case 0x6E: bytes.append(0x0A)  // n
            case 0x61: bytes.append(0x07)  // a
            case 0x78:                     // x
                let hex = String(decoding: characters.prefix(2), as: UTF8.self)
                characters = characters.dropFirst(2)
                bytes.append(UInt8(hex, radix: 16) ?? 0)
            default: bytes.append(next)
            }
        }
        return bytes
    }

    static func name(_ event: Event) -> String {
        switch event {
        case .key(let key): return key.displayName
        case .mouse(let mouse):
            let kind: String
            switch mouse.kind {
            case .press: kind = "press"
            case .release: kind = "release"
            case .drag: kind = "drag"
            case .wheelUp: kind = "wheel-up"
            case .wheelDown: kind = "wheel-down"
            }
            return "\(kind)@\(mouse.position.x),\(mouse.position.y)"
        case .paste(let text): return "paste:" + text
        default: return "\(event)"
        }
    }

    @Test func everyRowOfEveryTerminalDecodesAsItsTerminalMeansIt() throws {
        var checked = 0
        var failures: [String] = []
        for file in Self.files {
            let rows = try Self.rows(of: file)
            #expect(rows.count >= 40, "\(file) has \(rows.count) rows")
            guard let term = rows.first?.term, let keys = TerminfoReading.keys(ofTerminal: term) else {
                let term = rows.first?.term ?? "no # term: line"
                Issue.record("no terminfo entry for \(file) (\(term)): scripts/setup installs ncurses-term")
                continue
            }
            for row in rows {
                var decoder = InputDecoder(terminfoKeys: keys)
                var events = decoder.feed(row.bytes)
                if decoder.isWaiting { events += decoder.timeout() }
                let got = events.map(Self.name)
                if got != row.expected { failures.append("\(file): \(row.description): got \(got), expected \(row.expected)") }
                checked += 1
            }
        }
        let report = "\(failures.count) of \(checked) rows:\n" + failures.joined(separator: "\n")
        #expect(failures.isEmpty, "\(report)")
        #expect(checked >= 13 * 40)
    }
}
