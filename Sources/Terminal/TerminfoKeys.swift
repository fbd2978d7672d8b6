/// The keys `$TERM`'s terminfo entry names, as the sequences the terminal sends for them.
///
/// The decoder's own table knows how most terminals spell keys; where a terminal's entry says
/// otherwise, the entry wins: it is the one description that terminal's authors keep. Only
/// sequences that start with Esc and continue as CSI or SS3, or with one control byte, are taken; a single byte (kbs) keeps
/// its built-in meaning, since a user's own stty and terminal settings decide those more often
/// than terminfo does.
public struct TerminfoKeys: Hashable, Sendable {
    /// Sequence bytes after the Esc (`[3~`, `OP`) and the key each one is.
    private var keys: [[UInt8]: Key] = [:]

    /// No entry: the built-in table alone.
    public init() {}

    /// The capabilities a terminfo entry may name, with the key each stands for. The extended
    /// names (kDC, kUP5, …) are ncurses' user-defined capabilities, which xterm, rxvt and many
    /// others carry for modified keys.
    public static let capabilities: [(name: String, key: Key)] = {
        var list: [(String, Key)] = [
            ("kcuu1", .up), ("kcud1", .down), ("kcuf1", .right), ("kcub1", .left),
            ("khome", .home), ("kend", .end), ("kpp", .pageUp), ("knp", .pageDown),
            ("kich1", .insert), ("kdch1", .delete), ("kcbt", .backTab), ("kent", .enter),
            ("kLFT", Key.left.adding(.shift)), ("kRIT", Key.right.adding(.shift)),
            ("kHOM", Key.home.adding(.shift)), ("kEND", Key.end.adding(.shift)),
            ("kDC", Key.delete.adding(.shift)), ("kIC", Key.insert.adding(.shift)),
            ("kPRV", Key.pageUp.adding(.shift)), ("kNXT", Key.pageDown.adding(.shift)),
            ("kUP", Key.up.adding(.shift)), ("kDN", Key.down.adding(.shift)),
        ]
        list += (1...12).map { ("kf\($0)", Key.function($0)) }
        // xterm's numbering of modified keys: 2 Shift, 3 Alt, 4 Shift-Alt, 5 Ctrl, 6 Shift-Ctrl, 7 Alt-Ctrl.
        let modified: [(String, Key)] = [("kUP", .up), ("kDN", .down), ("kLFT", .left), ("kRIT", .right),
                                         ("kHOM", .home), ("kEND", .end), ("kDC", .delete)]
        let held: [(Int, KeyModifiers)] = [(2, .shift), (3, .alt), (4, [.shift, .alt]), (5, .control),
                                           (6, [.shift, .control]), (7, [.alt, .control])]
        for (name, key) in modified {
            for (number, modifiers) in held { list.append((name + String(number), key.adding(modifiers))) }
        }
        return list
    }()

    /// A table from capability names and their values as the entry spells them; a value that is
    /// not Esc and then a CSI or SS3 sequence is left out, and the first name given a sequence
    /// keeps it.
    public init(entries: [(name: String, bytes: [UInt8])]) {
        let meaning = Dictionary(Self.capabilities.map { ($0.name, $0.key) }, uniquingKeysWith: { first, _ in first })
        for (name, bytes) in entries {
            // Esc and a control byte (the Linux console's Shift-Tab is Esc Tab), or Esc and a CSI
            // or SS3 sequence. Esc and a letter stays Alt with it: macOS Terminal's entry names
            // Esc b for Option-←, which is the same word motion as Alt-b.
            guard let key = meaning[name], bytes.count >= 2, bytes.count <= 16, bytes[0] == 0x1B else { continue }
            guard bytes.count == 2 ? bytes[1] < 0x20 : bytes[1] == 0x5B || bytes[1] == 0x4F else { continue }
            let rest = Array(bytes.dropFirst())
            if keys[rest] == nil { keys[rest] = key }
        }
    }

    /// Whether the entry named no key at all.
    public var isEmpty: Bool { keys.isEmpty }

    /// The key for Esc and `byte` alone, when the entry names one.
    func key(afterEscape byte: UInt8) -> Key? {
        keys.isEmpty ? nil : keys[[byte]]
    }

    /// The key for a sequence of `introducer` (`[` or `O`), `parameters` and `final`, when the
    /// entry names one.
    func key(introducer: UInt8, parameters: [UInt8], final: UInt8) -> Key? {
        guard !keys.isEmpty else { return nil }
        var bytes = [introducer]
        bytes.reserveCapacity(parameters.count + 2)
        bytes += parameters
        bytes.append(final)
        return keys[bytes]
    }
}
