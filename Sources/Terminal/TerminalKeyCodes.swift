/// What the sequences terminals send mean: plain data for the input decoder. The forms are
/// those of xterm's ctlseqs (CSI with a `1;m` modifier parameter, `CSI n ~`), tmux and screen
/// (`CSI 1 ~` Home, `CSI 4 ~` End), rxvt (`CSI 7 ~` Home, `$` Shift, `^` Ctrl, lower-case
/// final letters for Shift and Ctrl arrows) and the Linux console (`CSI [ A`–`E` F1–F5).
enum TerminalKeyCodes {
    /// A byte on its own: a control key or an ASCII character.
    static func singleByte(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x09: return .tab
        case 0x0A, 0x0D: return .enter
        case 0x08, 0x7F: return .backspace
        case 0x00: return .control(" ")
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(byte + 0x60)))
        case 0x1B: return .escape
        case 0x1C...0x1F: return nil
        default: return .character(Character(Unicode.Scalar(byte)))
        }
    }

    /// xterm's modifier parameter: 1 plus a bit each for Shift (1), Alt (2), Ctrl (4) and
    /// Meta (8, taken as Alt).
    static func modifiers(_ parameter: Int?) -> KeyModifiers {
        guard let parameter, parameter > 1 else { return [] }
        let bits = parameter - 1
        var modifiers: KeyModifiers = []
        if bits & 1 != 0 { modifiers.insert(.shift) }
        if bits & (2 | 8) != 0 { modifiers.insert(.alt) }
        if bits & 4 != 0 { modifiers.insert(.control) }
        return modifiers
    }

    /// `CSI parameters final`.
    static func csi(final: UInt8, parameters: [Int]) -> Key? {
        let second = parameters.count > 1 ? parameters[1] : nil
        switch final {
        // `CSI P` alone is ECMA-48's "delete character", what st sends for Delete outside keypad
        // mode; F1 is SS3 P, and `CSI 1 ; m P` with modifiers.
        case 0x50 where parameters.isEmpty: return .delete
        case 0x41...0x44, 0x48, 0x46, 0x50...0x53:  // A–D arrows, H Home, F End, P–S F1–F4
            return letterKey(final)?.adding(modifiers(second))
        case 0x5A: return .backTab  // Z
        // st outside keypad mode sends ECMA-48's editing functions for the editing keys.
        case 0x68 where parameters == [4]: return .insert                          // IRM set
        case 0x6C where parameters == [4]: return Key.insert.adding(.shift)        // IRM reset
        case 0x4A: return parameters == [2] ? Key.home.adding(.shift) : parameters.isEmpty ? Key.end.adding(.control) : nil  // ED
        case 0x4B: return parameters == [2] ? Key.delete.adding(.shift) : parameters.isEmpty ? Key.end.adding(.shift) : nil  // EL
        case 0x4C where parameters.isEmpty: return Key.insert.adding(.control)      // IL
        case 0x7E: return tildeKey(parameters.first ?? 0)?.adding(modifiers(second))  // ~
        case 0x24: return tildeKey(parameters.first ?? 0)?.adding(.shift)             // rxvt $
        case 0x5E: return tildeKey(parameters.first ?? 0)?.adding(.control)           // rxvt ^
        case 0x40: return tildeKey(parameters.first ?? 0)?.adding([.control, .shift]) // rxvt @
        case 0x61...0x64: return letterKey(final - 0x20)?.adding(.shift)              // rxvt a–d
        case 0x75: return unicodeKey(parameters.first ?? 0)?.adding(modifiers(second)) // u: CSI u keys
        default: return nil
        }
    }

    /// `SS3 final`, with the modifier some terminals put before the final (`ESC O 5 A`).
    static func ss3(final: UInt8, parameters: [Int]) -> Key? {
        let held = modifiers(parameters.last)
        switch final {
        case 0x41...0x44, 0x48, 0x46, 0x50...0x53: return letterKey(final)?.adding(held)
        case 0x61...0x64: return letterKey(final - 0x20)?.adding(.control)  // rxvt's Ctrl arrows
        case 0x4D: return .enter                                             // keypad Enter
        case 0x70...0x79: return .character(Character(Unicode.Scalar(final - 0x70 + 0x30)))  // keypad 0–9
        case 0x6A: return .character("*")
        case 0x6B: return .character("+")
        case 0x6C: return .character(",")
        case 0x6D: return .character("-")
        case 0x6E: return .character(".")
        case 0x6F: return .character("/")
        case 0x58: return .character("=")
        default: return nil
        }
    }

    private static func letterKey(_ final: UInt8) -> Key? {
        switch final {
        case 0x41: return .up
        case 0x42: return .down
        case 0x43: return .right
        case 0x44: return .left
        case 0x48: return .home
        case 0x46: return .end
        case 0x50...0x53: return .function(Int(final) - 0x4F)
        default: return nil
        }
    }

    /// `CSI n ~`: the editing keys and the function keys.
    static func tildeKey(_ number: Int) -> Key? {
        switch number {
        case 1, 7: return .home  // 1 tmux, screen, Linux console; 7 rxvt
        case 2: return .insert
        case 3: return .delete
        case 4, 8: return .end   // 4 tmux, screen, Linux console; 8 rxvt
        case 5: return .pageUp
        case 6: return .pageDown
        case 11...15: return .function(number - 10)
        case 17...21: return .function(number - 11)
        case 23...26: return .function(number - 12)
        case 28, 29: return .function(number - 13)
        case 31...34: return .function(number - 14)
        default: return nil
        }
    }

    /// `CSI code ; modifiers u` (fixterms and the keyboard protocols built on it).
    private static func unicodeKey(_ code: Int) -> Key? {
        switch code {
        case 9: return .tab
        case 13: return .enter
        case 27: return .escape
        case 127: return .backspace
        default:
            // A control (C0, DEL, C1) is never text, whatever number a report gives it.
            guard code >= 0x20, code != 0x7F, !(0x80...0x9F).contains(code), let scalar = Unicode.Scalar(UInt32(code)) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// `CSI < b ; x ; y M` (press, motion) or `m` (release), the SGR mouse report.
    static func sgrMouse(_ numbers: [Int], final: UInt8) -> MouseEvent? {
        guard numbers.count >= 3, final == 0x4D || final == 0x6D else { return nil }
        let at = Point(x: max(0, numbers[1] - 1), y: max(0, numbers[2] - 1))
        return mouse(code: numbers[0], released: final == 0x6D, at: at)
    }

    /// `CSI M b x y`, each byte 32 more than its value (the mouse report before SGR).
    static func x10Mouse(_ bytes: [UInt8]) -> MouseEvent? {
        guard bytes.count == 3, bytes.allSatisfy({ $0 >= 0x20 }) else { return nil }
        let code = Int(bytes[0]) - 32
        let at = Point(x: max(0, Int(bytes[1]) - 33), y: max(0, Int(bytes[2]) - 33))
        // The old report has one release for every button: it says "3", not which.
        if code & 0b1100011 == 3 { return MouseEvent(.release, at: at) }
        return mouse(code: code, released: false, at: at)
    }

    private static func mouse(code: Int, released: Bool, at: Point) -> MouseEvent? {
        let buttons: [MouseEvent.Button] = [.left, .middle, .right, .none]
        let button = buttons[code & 3]
        if code & 64 != 0 {
            // Wheel: 64 up, 65 down; 66 and 67 are a sideways wheel, which nothing scrolls.
            switch code & 3 {
            case 0: return MouseEvent(.wheelUp, button: .none, at: at)
            case 1: return MouseEvent(.wheelDown, button: .none, at: at)
            default: return nil
            }
        }
        if released { return MouseEvent(.release, button: button == .none ? .left : button, at: at) }
        if code & 32 != 0 { return button == .none ? nil : MouseEvent(.drag, button: button, at: at) }
        return button == .none ? nil : MouseEvent(.press, button: button, at: at)
    }
}
