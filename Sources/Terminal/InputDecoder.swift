/// Turns the bytes a terminal sends into events: text in the locale's charset, control keys,
/// CSI and SS3 sequences with their parameters and modifiers (xterm, tmux/screen, rxvt and
/// the Linux console, and whatever `$TERM`'s terminfo entry names), Alt as an Esc prefix or
/// as 8-bit meta, SGR and X10 mouse reports and bracketed paste.
///
/// Input is a protocol, not a keyboard: a terminal also sends replies and strings that are
/// never keys — DCS (XTVERSION, DECRQSS, XTGETTCAP, sixel), OSC (colours, the clipboard), APC,
/// PM and SOS, device attributes and status reports, focus events. Each is consumed whole and
/// dropped, and none of its bytes reaches a screen.
///
/// A value fed bytes, with no clock and no terminal: whoever reads the terminal calls
/// `timeout()` once the input has been quiet for the escape delay while `isWaiting`, which
/// is how a lone Esc is told apart from the start of a sequence, and how a string whose end
/// never comes is ended. A sequence it does not know is consumed whole and dropped: it never
/// turns into an Esc and stray characters.
public struct InputDecoder: Sendable {
    /// Parameters longer than this are no key any terminal sends: the rest of the sequence is
    /// skipped up to its final byte, without being kept.
    static let sequenceLimit = 64
    /// A paste is handed on in pieces of about this many bytes, so a paste without an end
    /// marker cannot grow without bound.
    public static let pasteChunkLimit = 1 << 20
    private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]  // ESC [ 2 0 1 ~

    private enum State: Sendable {
        case ground
        case escape                          // ESC
        case escapeEscape                    // ESC ESC: rxvt's and tmux's Alt before a sequence
        case csi(alt: Bool)                  // ESC [ and its parameters so far
        case ss3(alt: Bool)                  // ESC O
        case linuxFunction(alt: Bool)        // ESC [ [ : the Linux console's F1–F5
        case x10Mouse                        // ESC [ M and three bytes
        case utf8(remaining: Int, alt: Bool)
        case skipping                        // an overlong sequence, up to its final byte
        case paste
        /// The body of a DCS, OSC, APC, PM or SOS string, up to its terminator; `introducer` is
        /// the byte after Esc (0 for an 8-bit C1 one), `empty` until a byte of the body came.
        case controlString(introducer: UInt8, empty: Bool)
        case controlStringEscape             // Esc inside a string: `\` ends it
    }

    private var state = State.ground
    private var sequence: [UInt8] = []
    private var pasteBytes: [UInt8] = []
    private let terminfoKeys: TerminfoKeys
    private let charset: InputCharset

    /// A decoder with nothing pending, reading text as `charset` and keys as the built-in
    /// table and `terminfoKeys` (which wins where they disagree) spell them.
    public init(terminfoKeys: TerminfoKeys = TerminfoKeys(), charset: InputCharset = .utf8) {
        self.terminfoKeys = terminfoKeys
        self.charset = charset
    }

    /// True while a sequence, a character or a paste is half read: call `timeout()` if no more
    /// bytes come within the escape delay (the paste delay while `isInPaste`).
    public var isWaiting: Bool {
        if case .ground = state { return false }
        return true
    }

    /// True between the start and end markers of a bracketed paste: the text read so far is held
    /// until the end marker, or until the paste has been silent for the paste delay.
    public var isInPaste: Bool {
        if case .paste = state { return true }
        return false
    }

    /// Decodes `bytes` as they arrive and returns the events they complete; a sequence cut between two reads is kept until the rest comes.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes { step(byte, into: &events) }
        return events
    }

    /// The input went quiet with something half read. A lone Esc is the Esc key, and two are
    /// two presses (Esc twice, quickly, to back out twice; an Alt-Esc no screen uses would
    /// swallow one); Esc and `[`, `O`, `P`, `]`, `_`, `^` or `X` alone are Alt with that key; a
    /// paste whose end marker never came is delivered as far as it got; a string whose end
    /// never came is dropped, so it can swallow no more than what came before the quiet;
    /// anything else half read is dropped, except what 8-bit meta explains in an ASCII locale.
    public mutating func timeout() -> [Event] {
        defer { sequence = []; state = .ground }
        switch state {
        case .ground: return []
        case .escape: return [.key(.escape)]
        case .escapeEscape: return [.key(.escape), .key(.escape)]
        case .csi(alt: false) where sequence.isEmpty: return [.key(Key.character("[").adding(.alt))]
        case .ss3(alt: false) where sequence.isEmpty: return [.key(Key.character("O").adding(.alt))]
        case .controlString(let introducer, empty: true) where introducer != 0:
            return [.key(Key.character(Character(Unicode.Scalar(introducer))).adding(.alt))]
        case .utf8(_, let alt) where charset == .ascii:
            var events: [Event] = []
            for byte in sequence { emitMeta(byte, alt: alt, into: &events) }
            return events
        case .paste:
            let text = pasteText(pasteBytes)
            pasteBytes = []
            return text.isEmpty ? [] : [.paste(text)]
        default: return []
        }
    }

    // MARK: the state machine

    private mutating func step(_ byte: UInt8, into events: inout [Event]) {
        switch state {
        case .ground:
            ground(byte, alt: false, into: &events)
        case .escape:
            switch byte {
            case 0x5B: begin(.csi(alt: false))
            case 0x4F: begin(.ss3(alt: false))
            case 0x1B: state = .escapeEscape
            case 0x50, 0x5D, 0x5F, 0x5E, 0x58: state = .controlString(introducer: byte, empty: true)  // P ] _ ^ X
            default:
                state = .ground
                if let key = terminfoKeys.key(afterEscape: byte) { return emit(key, alt: false, into: &events) }
                ground(byte, alt: true, into: &events)
            }
        case .escapeEscape:
            switch byte {
            case 0x5B: begin(.csi(alt: true))
            case 0x4F: begin(.ss3(alt: true))
            default:
                // Esc pressed, then Esc and a key: the first is the Esc key.
                events.append(.key(.escape))
                state = .escape
                step(byte, into: &events)
            }
        case .csi(let alt):
            csi(byte, alt: alt, into: &events)
        case .ss3(let alt):
            switch byte {
            case 0x30...0x3B:
                collect(byte)
            case 0x40...0x7E:
                state = .ground
                let key = terminfoKeys.key(introducer: 0x4F, parameters: sequence, final: byte)
                    ?? TerminalKeyCodes.ss3(final: byte, parameters: Self.numbers(sequence))
                emit(key, alt: alt, into: &events)
            default:
                state = .ground
                step(byte, into: &events)
            }
        case .linuxFunction(let alt):
            state = .ground
            if (0x41...0x45).contains(byte) { emit(.function(Int(byte) - 0x40), alt: alt, into: &events) }
        case .x10Mouse:
            sequence.append(byte)
            if sequence.count == 3 {
                state = .ground
                if let mouse = TerminalKeyCodes.x10Mouse(sequence) { events.append(.mouse(mouse)) }
            }
        case .utf8(let remaining, let alt):
            guard (0x80...0xBF).contains(byte) else {
                // A broken character is dropped (in an ASCII locale its bytes were 8-bit
                // meta); the byte starts afresh.
                state = .ground
                if charset == .ascii { for held in sequence { emitMeta(held, alt: alt, into: &events) } }
                return step(byte, into: &events)
            }
            sequence.append(byte)
            if remaining > 1 {
                state = .utf8(remaining: remaining - 1, alt: alt)
            } else {
                state = .ground
                if let scalar = String(validating: sequence, as: UTF8.self)?.unicodeScalars.first {
                    if (0x80...0x9F).contains(scalar.value) {
                        // A C1 control written in UTF-8, as xterm sends 8-bit controls there: never text.
                        sequence = []
                        c1Control(UInt8(scalar.value), alt: alt)
                    } else {
                        emit(.character(Character(scalar)), alt: alt, into: &events)
                    }
                }
            }
        case .skipping:
            switch byte {
            case 0x20...0x3F: break
            case 0x40...0x7E: state = .ground
            default:
                state = .ground
                step(byte, into: &events)
            }
        case .paste:
            pasteByte(byte, into: &events)
        case .controlString(let introducer, _):
            switch byte {
            case 0x1B: state = .controlStringEscape
            case 0x07, 0x18, 0x1A: state = .ground  // BEL ends an OSC (and is taken for any); CAN and SUB cancel
            default: state = .controlString(introducer: introducer, empty: false)
            }
        case .controlStringEscape:
            if byte == 0x5C {  // ESC \: the string terminator
                state = .ground
            } else {
                // Any other Esc cancels the string and starts a sequence of its own.
                state = .escape
                step(byte, into: &events)
            }
        }
    }

    private mutating func begin(_ next: State) {
        state = next
        sequence = []
    }

    private mutating func collect(_ byte: UInt8) {
        sequence.append(byte)
        if sequence.count > Self.sequenceLimit { begin(.skipping) }
    }

    private mutating func ground(_ byte: UInt8, alt: Bool, into events: inout [Event]) {
        switch byte {
        case 0x1B:
            state = .escape
        case 0x00...0x7F:
            emit(TerminalKeyCodes.singleByte(byte), alt: alt, into: &events)
        default:
            switch charset {
            case .utf8: utf8Byte(byte, alt: alt)
            case .ascii:
                switch byte {
                case 0xC2...0xF4: utf8Byte(byte, alt: alt)
                default: emitMeta(byte, alt: alt, into: &events)
                }
            case .singleByte(let table):
                if let scalar = table[byte] { emit(.character(Character(scalar)), alt: alt, into: &events) }
            }
        }
    }

    /// A byte with its eighth bit set in UTF-8: the start of a character, an 8-bit C1 introducer
    /// (CSI, SS3, DCS, OSC, APC, PM, SOS: never text in UTF-8), or nothing.
    private mutating func utf8Byte(_ byte: UInt8, alt: Bool) {
        switch byte {
        case 0xC2...0xDF: startCharacter(byte, remaining: 1, alt: alt)
        case 0xE0...0xEF: startCharacter(byte, remaining: 2, alt: alt)
        case 0xF0...0xF4: startCharacter(byte, remaining: 3, alt: alt)
        case 0x80...0x9F where charset == .utf8: c1Control(byte, alt: alt)
        default: break  // not the start of a UTF-8 character
        }
    }

    /// A C1 control: CSI, SS3 and the string introducers (DCS, OSC, APC, PM, SOS) begin what
    /// their 7-bit forms begin; the others mean nothing here.
    private mutating func c1Control(_ code: UInt8, alt: Bool) {
        switch code {
        case 0x9B: begin(.csi(alt: alt))
        case 0x8F: begin(.ss3(alt: alt))
        case 0x90, 0x9D, 0x9F, 0x9E, 0x98: state = .controlString(introducer: 0, empty: true)
        default: break
        }
    }

    /// 8-bit meta: Alt with the key of the byte's low seven bits.
    private func emitMeta(_ byte: UInt8, alt: Bool, into events: inout [Event]) {
        emit(TerminalKeyCodes.singleByte(byte & 0x7F), alt: true, into: &events)
    }

    private mutating func startCharacter(_ lead: UInt8, remaining: Int, alt: Bool) {
        sequence = [lead]
        state = .utf8(remaining: remaining, alt: alt)
    }

    private mutating func csi(_ byte: UInt8, alt: Bool, into events: inout [Event]) {
        if sequence.isEmpty && byte == 0x4D && !alt { return begin(.x10Mouse) }       // ESC [ M
        if sequence.isEmpty && byte == 0x5B { return begin(.linuxFunction(alt: alt)) } // ESC [ [
        // rxvt ends Shift-Home and its like with `$`, which ECMA-48 counts as an intermediate.
        let rxvtShift = byte == 0x24 && !sequence.isEmpty && sequence.allSatisfy { (0x30...0x39).contains($0) }
        switch byte {
        case 0x20...0x3F where !rxvtShift:
            collect(byte)
        case 0x40...0x7E, 0x24:
            state = .ground
            let parameters = sequence
            sequence = []
            if parameters.first == 0x3C {  // `<`: an SGR mouse report
                if let mouse = TerminalKeyCodes.sgrMouse(Self.numbers(parameters.dropFirst()), final: byte) { events.append(.mouse(mouse)) }
                return
            }
            // `?`, `>` and `=` begin replies to queries the app never sends (device attributes,
            // mode reports, the keyboard protocol's flags); intermediates (`$`, space, …) end
            // reports and commands, never a key but rxvt's `$` above.
            guard parameters.first.map({ !(0x3D...0x3F).contains($0) }) ?? true,
                  !parameters.contains(where: { (0x20...0x2F).contains($0) }) else { return }
            if let key = terminfoKeys.key(introducer: 0x5B, parameters: parameters, final: byte) {
                return emit(key, alt: alt, into: &events)
            }
            let numbers = Self.numbers(parameters)
            if byte == 0x7E && numbers.first == 200 {
                begin(.paste)
                pasteBytes = []
                return
            }
            // A cursor position report (`CSI row ; column R`) looks like F3 with modifiers,
            // whose first number is always 1; so do the other F1–F4 finals.
            if (0x50...0x53).contains(byte), let first = numbers.first, first != 1 { return }
            emit(TerminalKeyCodes.csi(final: byte, parameters: numbers), alt: alt, into: &events)
        default:
            // A control byte inside a sequence: the sequence is broken, the byte is input.
            state = .ground
            sequence = []
            step(byte, into: &events)
        }
    }

    private func emit(_ key: Key?, alt: Bool, into events: inout [Event]) {
        guard let key else { return }
        events.append(.key(alt ? key.adding(.alt) : key))
    }

    // MARK: paste

    private mutating func pasteByte(_ byte: UInt8, into events: inout [Event]) {
        pasteBytes.append(byte)
        if byte == 0x7E && pasteBytes.count >= Self.pasteEnd.count && pasteBytes.suffix(Self.pasteEnd.count).elementsEqual(Self.pasteEnd) {
            pasteBytes.removeLast(Self.pasteEnd.count)
            state = .ground
            let text = pasteText(pasteBytes)
            pasteBytes = []
            if !text.isEmpty { events.append(.paste(text)) }
            return
        }
        guard pasteBytes.count >= Self.pasteChunkLimit + Self.pasteEnd.count else { return }
        // Hand on what came so far, cut where neither a character, a CR LF nor a possible end
        // marker is split.
        var cut = Self.pasteChunkLimit
        while cut > 0 && (0x80...0xBF).contains(pasteBytes[cut]) { cut -= 1 }
        if cut > 0 && pasteBytes[cut - 1] == 0x0D { cut -= 1 }
        let text = pasteText(pasteBytes[..<cut])
        pasteBytes.removeFirst(cut)
        if !text.isEmpty { events.append(.paste(text)) }
    }

    /// Pasted bytes as text in the decoder's charset.
    private func pasteText(_ bytes: some Collection<UInt8>) -> String {
        Self.pasteText(bytes, charset: charset)
    }

    /// Pasted bytes as text: CR LF or CR (what terminals send for a line break) becomes LF;
    /// in UTF-8 (and ASCII) invalid bytes become U+FFFD, in a single-byte charset each byte is
    /// its character, or nothing where the charset has none.
    static func pasteText(_ bytes: some Collection<UInt8>, charset: InputCharset = .utf8) -> String {
        var normalized: [UInt8] = []
        normalized.reserveCapacity(bytes.count)
        var afterCR = false
        for byte in bytes {
            if byte == 0x0A && afterCR { afterCR = false; continue }
            afterCR = byte == 0x0D
            normalized.append(afterCR ? 0x0A : byte)
        }
        guard case .singleByte(let table) = charset else { return String(decoding: normalized, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        for byte in normalized {
            if byte < 0x80 { scalars.append(Unicode.Scalar(byte)) } else if let scalar = table[byte] { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// The numbers of a parameter string: `1;5` is [1, 5]; an empty field is 0, and a field's
    /// sub-parameters (after `:`) are left out. Numbers stop growing at 99 999.
    static func numbers(_ bytes: some Collection<UInt8>) -> [Int] {
        guard !bytes.isEmpty else { return [] }
        var result: [Int] = [0]
        var inSubparameter = false
        for byte in bytes {
            switch byte {
            case 0x3B:
                result.append(0)
                inSubparameter = false
            case 0x3A: inSubparameter = true
            case 0x30...0x39 where !inSubparameter:
                result[result.count - 1] = min(result[result.count - 1] * 10 + Int(byte - 0x30), 99_999)
            default: break
            }
        }
        return result
    }
}
