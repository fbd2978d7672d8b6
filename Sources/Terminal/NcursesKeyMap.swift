import CNcursesw

/// Turns what `wget_wch` returns into keys. Kept apart from the terminal so the mapping is
/// plain data to read and to test.
enum NcursesKeyMap {
    /// A function-key code (`wget_wch` returned KEY_CODE_YES).
    static func key(forCode code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME, KEY_A1: return .home
        case KEY_END, KEY_C1: return .end
        case KEY_PPAGE, KEY_A3: return .pageUp
        case KEY_NPAGE, KEY_C3: return .pageDown
        case KEY_IC: return .insert
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        default:
            for n in 1...24 where code == wl_key_f(Int32(n)) { return .function(n) }
            return nil
        }
    }

    /// An ordinary character code (a Unicode scalar value).
    static func key(forCharacter value: UInt32) -> Key? {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 0: return .control(" ")
        case 1...26: return .control(Character(Unicode.Scalar(value + 96)!))
        case 28...31: return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }
}
