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
        // Sorted through a pointer: sorting `keys[base...]` would copy the whole array first.
        keys.withUnsafeMutableBufferPointer { all in
            var own = UnsafeMutableBufferPointer(rebasing: all[base...])
            own.sort { a, b in
                if a.prefix != b.prefix { return a.prefix < b.prefix }
                if a.length <= 8, b.length <= 8 { return a.length < b.length }
                return dictionary.keys[a.position].utf8.lexicographicallyPrecedes(dictionary.keys[b.position].utf8)
            }
        }
        return base..<keys.count
    }

    /// The dictionary position at `offset` of a range `sort` returned.
    subscript(offset: Int) -> Dictionary<String, PropertyListValue>.Index { keys[offset].position }

    /// Gives back the space of the last range `sort` returned.
    mutating func release(_ range: Range<Int>) {
        keys.removeLast(range.count)
    }

    /// The first eight UTF-8 bytes as a big-endian number, zero-filled: two keys whose first
    /// eight bytes differ compare as those numbers do.
    private static func key(_ text: String, at position: Dictionary<String, PropertyListValue>.Index) -> Key {
        let utf8 = text.utf8
        let prefix = utf8.withContiguousStorageIfAvailable(prefix) ?? prefix(Array(utf8.prefix(8)))
        return Key(prefix: prefix, length: utf8.count, position: position)
    }

    private static func prefix<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> UInt64 where Bytes.Index == Int {
        let taken = Swift.min(8, bytes.count)
        guard taken > 0 else { return 0 }
        var prefix: UInt64 = 0
        for i in bytes.startIndex..<bytes.startIndex + taken { prefix = prefix << 8 | UInt64(bytes[i]) }
        return prefix << (8 * UInt64(8 - taken))
    }
}
