import Screens
import Terminal
import Testing

/// What every screen that lists or scrolls answers to: the keys `MotionKeys` binds and the
/// bytes terminals send for them, with one check for a screen's bindings and help.
public enum MotionKeyCheck {
    /// ↑↓, PgUp/PgDn, Home/End and ^A/^E.
    public static let everyMotionKey: [Key] = [.up, .down, .pageUp, .pageDown, .home, .end, .control("a"), .control("e")]
    /// The bytes tmux sends for Home and End (not xterm's), which the decoder must know too.
    public static let tmuxHome: [UInt8] = Array("\u{1B}[1~".utf8)
    public static let tmuxEnd: [UInt8] = Array("\u{1B}[4~".utf8)

    /// What `screen` lacks, one line each: a motion key it does not bind, or help that does
    /// not list Home/End with ^A/^E. Empty when it has them all.
    public static func problems(of screen: Screen, named name: String) -> [String] {
        let bound = Set(screen.keyBindings.flatMap(\.keys))
        var problems = everyMotionKey.filter { !bound.contains($0) }.map { "\(name) lacks \($0.displayName)" }
        if !screen.keyBindings.contains(where: { $0.label == "Home/End" && $0.help.contains("^A/^E") }) {
            problems.append("\(name) does not list Home/End with ^A/^E in its help")
        }
        return problems
    }

    /// Records a test failure at the caller's line for each of `problems(of:named:)`; true
    /// when there was none.
    @discardableResult
    public static func expectEveryMotionKey(_ screen: Screen, named name: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let found = problems(of: screen, named: name)
        for problem in found { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
        return found.isEmpty
    }
}
