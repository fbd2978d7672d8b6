/// A dictionary's positions in the UTF-8 byte order of its keys (Unicode code point order, the
/// order plistlib and Apple's writers use, rather than Swift's `<`, which compares canonical
/// forms and so can tie distinct keys).
///
/// Writers sort the keys of every dictionary they write. Sorting the entries themselves copies
/// a key and a value, with a retain and a release, at every move, and then frees an array of
/// them; this sorts plain numbers (each key's first eight bytes, its length, its position),
/// which decide nearly every comparison alone, in one scratch array reused for every dictionary
/// (nested ones take the space after their parent's and give it back when done).
struct DictionaryKeyOrder {
    private struct Key {
        let prefix: UInt64
        let length: Int
        let position: Dictionary<String, PropertyListValue>.Index
    }

    private var keys: [Key] = []

    /// Appends `dictionary`'s positions in key order and returns where they sit; read them with
    /// the subscript, then hand the range back with `release`.
    mutating func sort(_ dictionary: [String: PropertyListValue]) -> Range<Int> {
        let base = keys.count
        var position = dictionary.startIndex
        while position != dictionary.endIndex {
            keys.append(Self.key(dictionary.keys[position], at: position))
            dictionary.formIndex(after: &position)
        }
        keys[base...].sort { a, b in
            if a.prefix != b.prefix { return a.prefix < b.prefix }
            if a.length <= 8, b.length <= 8 { return a.length < b.length }
            return dictionary.keys[a.position].utf8.lexicographicallyPrecedes(dictionary.keys[b.position].utf8)
        }
        return base..<keys.count
    }

    /// The dictionary position at `offset` of a range `sort` returned.
    subscript(offset: Int) -> Dictionary<String, PropertyListValue>.Index { keys[offset].position }

    /// Gives back the space of the last range `sort` returned.
    mutating func release(_ range: Range<Int>) {
        keys.removeSubrange(range)
    }

    /// The first eight UTF-8 bytes as a big-endian number, zero-filled: two keys whose first
    /// eight bytes differ compare as those numbers do.
    private static func key(_ text: String, at position: Dictionary<String, PropertyListValue>.Index) -> Key {
        var prefix: UInt64 = 0
        var taken = 0
        for byte in text.utf8 {
            guard taken < 8 else { break }
            prefix = prefix << 8 | UInt64(byte)
            taken += 1
        }
        if taken < 8 { prefix = taken == 0 ? 0 : prefix << (8 * UInt64(8 - taken)) }
        return Key(prefix: prefix, length: text.utf8.count, position: position)
    }
}
