import Foundation
import TestPrerequisites
@testable import Terminal

extension Prerequisite {
    /// The terminfo entry of every terminal in the input corpus, found as the app finds its own.
    static let corpusTerminfoEntries: Prerequisite = {
        let terms = TerminalInputCorpusTests.files.map { file in (try? TerminalInputCorpusTests.rows(of: file).first?.term) ?? file }
        let missing = terms.filter { TerminfoReading.keys(ofTerminal: $0) == nil }
        return Prerequisite(name: "terminfo for \(missing.joined(separator: ", "))",
                            remedy: "scripts/setup installs them (Debian's ncurses-term, foot-terminfo, kitty-terminfo)") { missing.isEmpty }
    }()
}
