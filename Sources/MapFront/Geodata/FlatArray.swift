import FileSafety

/// Elements laid out one after another in memory that never changes: either copied from an
/// array the map built, or read in place from a mapped map index (`MapLevelFile`). Drawing reads
/// both the same way, so a scale loaded from its index costs only the pages a frame touches.
public struct FlatArray<Element: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
    /// Immutable once made; `owner` keeps it alive.
    let buffer: UnsafeBufferPointer<Element>
    private let owner: AnyObject?

    public init(_ elements: [Element]) {
        self.init(count: elements.count) { _ = $0.initialize(from: elements) }
    }

    /// `count` elements that `initialize` writes in place, every one of them, with no array
    /// copied after (an index of millions of edges is made once, not twice).
    init(count: Int, initializingWith initialize: (UnsafeMutableBufferPointer<Element>) -> Void) {
        let storage = OwnedElements<Element>(count: count)
        initialize(storage.pointer)
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

    /// Whether the elements are read in place from a mapped file.
    var isMapped: Bool { owner is MappedFile }

    /// The raw bytes, as a map index stores them.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(buffer) }
}

/// Elements on the heap, freed with the last `FlatArray` that reads them.
private final class OwnedElements<Element: BitwiseCopyable> {
    let pointer: UnsafeMutableBufferPointer<Element>

    init(count: Int) {
        pointer = UnsafeMutableBufferPointer.allocate(capacity: count)
    }

    deinit { pointer.deallocate() }
}
