import FoundationEssentials

/// The bytes of an XML property list as they are written: one growing allocation, handed to
/// `Data` at the end without a copy.
///
/// The writer appends a few bytes at a time, millions of times for a large file; an array's
/// uniqueness and capacity checks at each append, and the copy into `Data` at the end, were
/// most of what writing cost.
final class XMLOutputBuffer {
    private var start: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64 << 10) {
        self.capacity = max(capacity, 64)
        start = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 1)
    }

    deinit { start.deallocate() }

    /// Makes room for `more` bytes and returns where they go; the caller writes them all and
    /// then calls `commit`.
    @inline(__always)
    private func reserve(_ more: Int) -> UnsafeMutableRawPointer {
        if count + more > capacity { grow(toHold: count + more) }
        return start + count
    }

    private func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1)
        bigger.copyMemory(from: start, byteCount: count)
        start.deallocate()
        start = bigger
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1).storeBytes(of: byte, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A string's UTF-8. Named apart from `append(_: StaticString)` so that a literal, which
    /// would rather be a `String`, takes the static path.
    func append(contentsOf text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// `count` copies of `byte` (the tabs of an indent), stored one by one: indents are a few
    /// bytes, too short for a fill call to pay.
    @inline(__always)
    func append(repeating byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        let place = reserve(repeats).assumingMemoryBound(to: UInt8.self)
        for offset in 0..<repeats { place[offset] = byte }
        count += repeats
    }

    /// The decimal digits of `value`, with a minus sign when negative.
    func appendDecimal(_ value: Int64) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            appendDecimal(value.magnitude)
        } else {
            appendDecimal(UInt64(value))
        }
    }

    func appendDecimal(_ value: UInt64) {
        // 20 digits hold UInt64.max; written from the end, then copied out in order.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var remaining = value
            var first = 20
            repeat {
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining != 0
            append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(digits)[first...]))
        }
    }

    /// Room for at most `most` bytes, filled by `body`, which returns how many it wrote.
    func append(atMost most: Int, _ body: (UnsafeMutableRawBufferPointer) -> Int) {
        let place = reserve(most)
        let written = body(UnsafeMutableRawBufferPointer(start: place, count: most))
        count += written
    }

    /// The bytes written, handed over without a copy; the buffer is empty afterwards.
    func takeData() -> Data {
        let bytes = start
        let written = count
        start = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 1)
        capacity = 64
        count = 0
        return Data(bytesNoCopy: bytes, count: written, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }
}
