import Foundation
import TestPrerequisites

extension Prerequisite {
    /// The sqlite3 shell, which edits a database behind the library's back.
    static let sqlite3 = program("sqlite3", remedy: "scripts/setup installs it (Debian's sqlite3)")
}
