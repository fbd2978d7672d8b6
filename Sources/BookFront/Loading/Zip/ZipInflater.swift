import CZlib

/// Raw deflate (RFC 1951, as zip stores it) through zlib, streamed: compressed bytes come from
/// `source` a buffer at a time and inflated bytes go to `sink` 64 KB at a time, so the caller
/// can stop a zip bomb as soon as it has seen too much, whatever the archive claimed.
final class ZipInflater {
    static let chunk = 65_536

    /// zlib keeps a pointer back to its stream and checks it, so the stream may never move.
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    private let output: UnsafeMutableRawBufferPointer

    init() throws(ZipError) {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard wl_inflate_init_raw(stream) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .damaged("zlib could not start")
        }
        self.stream = stream
        input = .allocate(byteCount: Self.chunk, alignment: 16)
        output = .allocate(byteCount: Self.chunk, alignment: 16)
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
        output.deallocate()
    }

    /// Inflates one stream to its end. `source` fills the buffer it is given and returns how
    /// much it put there, 0 once the compressed data is used up; a stream that needs more then
    /// is cut short. Errors thrown by `source` or `sink` stop inflation and pass through.
    func inflate(from source: (UnsafeMutableRawBufferPointer) throws -> Int,
                 into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        var exhausted = false
        while true {
            if stream.pointee.avail_in == 0, !exhausted {
                let count = try source(input)
                if count == 0 {
                    exhausted = true
                } else {
                    stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_in = uInt(count)
                }
            }
            let availableBefore = stream.pointee.avail_in
            stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(Self.chunk)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let produced = Self.chunk - Int(stream.pointee.avail_out)
            if produced > 0 { try sink(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
            switch status {
            case Z_STREAM_END:
                return
            case Z_OK, Z_BUF_ERROR:
                // No progress with no input left: the stream stops before its last block.
                let progressed = produced > 0 || stream.pointee.avail_in != availableBefore
                if !progressed, exhausted || stream.pointee.avail_in != 0 {
                    throw ZipError.damaged("its compressed data is cut short")
                }
            default:
                throw ZipError.damaged("its compressed data is not valid deflate")
            }
        }
    }
}
