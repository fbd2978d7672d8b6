import CNcursesw

/// What the running terminal's terminfo entry and the locale say about input, read once at
/// start while curses has the entry loaded.
enum TerminfoReading {
    /// The value of string capability `name` with its padding (`$<5>`) taken out, as the crash
    /// guard's reset bytes are made; nil when the entry has none.
    static func capability(_ name: String) -> [UInt8]? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
            let length = Int(wl_append_capability(name, buffer.baseAddress, 0, Int32(buffer.count)))
            guard length > 0 else { return nil }
            return buffer.prefix(length).map { UInt8(bitPattern: $0) }
        }
    }

    /// The keys terminal `name`'s entry names, read while curses is not running; nil when the
    /// system has no such entry.
    static func keys(ofTerminal name: String) -> TerminfoKeys? {
        guard wl_load_terminfo(name) == 1 else { return nil }
        defer { wl_unload_terminfo() }
        return keys()
    }

    /// The keys the current entry names.
    static func keys() -> TerminfoKeys {
        TerminfoKeys(entries: TerminfoKeys.capabilities.compactMap { entry in
            capability(entry.name).map { (entry.name, $0) }
        })
    }

    /// The locale's charset as the decoder reads it. A multibyte charset other than UTF-8
    /// (EUC-JP, GB18030, Big5) is read as UTF-8, which covers its ASCII.
    static func charset() -> InputCharset {
        switch wl_input_charset_kind() {
        case 1: return .ascii
        case 2:
            return .singleByte(SingleByteTable { byte in
                let value = wl_locale_byte_scalar(byte)
                return value < 0 ? nil : Unicode.Scalar(UInt32(value))
            })
        default: return .utf8
        }
    }
}
