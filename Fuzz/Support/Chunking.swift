/// The input cut into reads of 1…`longest` bytes, in a pattern fixed by the input's length, so
/// a target that checks "the result does not depend on how the stream was cut" reproduces.
public func chunked(_ bytes: [UInt8], longest: Int) -> [ArraySlice<UInt8>] {
    var pieces: [ArraySlice<UInt8>] = []
    var start = 0
    var size = bytes.count % longest + 1
    while start < bytes.count {
        let end = min(bytes.count, start + size)
        pieces.append(bytes[start..<end])
        start = end
        size = size % longest + 1
    }
    return pieces
}
