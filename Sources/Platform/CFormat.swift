#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Text made by the C library's printf rules ("%02x", "%.1f", "%08llx"), for the few places
/// that need a fixed-width or fixed-precision number. Only numbers and C strings: a Swift
/// String is interpolated instead.
public func cFormat(_ format: String, _ arguments: CVarArg...) -> String {
    withVaList(arguments) { list in
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
        guard needed >= buffer.count else { return text(buffer) }
        return withVaList(arguments) { again in
            var larger = [CChar](repeating: 0, count: needed + 1)
            _ = vsnprintf(&larger, larger.count, format, again)
            return text(larger)
        }
    }
}

/// The C string in `buffer`, up to its terminating zero.
private func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
