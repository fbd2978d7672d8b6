import FileSafety

/// Elements laid out one after another in memory that never changes: either copied from an
/// array the map built, or read in place from a mapped map index (`MapLevelFile`). Drawing reads
/// both the same way, so a scale loaded from its index costs only the pages a frame touches.
public struct FlatArray<Element: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
    /// Immutable once made; `owner` keeps it alive.
    let buffer: UnsafeBufferPointer<Element>
    private let owner: AnyObject?

    public init(_ elements: [Element]) {
        let storage = OwnedElements<Element>(elements)
        buffer = UnsafeBufferPointer(storage.pointer)
        owner = storage
    }

    /// `count` elements at `byteOffset` of `file`; the caller has checked that they lie inside
    /// it and are aligned for `Element`.
    init(_ file: MappedFile, byteOffset: Int, count: Int) {
        let start = count == 0 ? nil : file.bytes.baseAddress.map { ($0 + byteOffset).assumingMemoryBound(to: Element.self) }
        buffer = UnsafeBufferPointer(start: start, count: count)
        owner = file
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { buffer.count }
    @inline(__always) public subscript(position: Int) -> Element { buffer[position] }

    /// The raw bytes, as a map index stores them.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(buffer) }
}

/// A heap copy of an array's elements, freed with the last `FlatArray` that reads it.
private final class OwnedElements<Element: BitwiseCopyable> {
    let pointer: UnsafeMutableBufferPointer<Element>

    init(_ elements: [Element]) {
        pointer = UnsafeMutableBufferPointer.allocate(capacity: elements.count)
        _ = pointer.initialize(from: elements)
    }

    deinit { pointer.deallocate() }
}
