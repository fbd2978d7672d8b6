import Foundation
import FuzzSupport
import Terminal

/// Feeds arbitrary bytes to the input decoder as a terminal would: in reads of uneven sizes,
/// in three charsets, with and without the escape delay passing between reads. Oracles: no
/// trap; the events do not depend on how the bytes were cut; a timeout leaves nothing half
/// read; no control character ever arrives as text, and no paste piece is over its bound;
/// and the same bytes inside a DCS or OSC string (their terminators taken out) give no event.


func decodeWhole(_ bytes: [UInt8], _ charset: InputCharset) -> [Event] {
    var decoder = InputDecoder(charset: charset)
    var events = decoder.feed(bytes)
    events += decoder.timeout()
    precondition(!decoder.isWaiting, "still waiting after a timeout")
    return events
}

func check(_ events: [Event]) {
    for event in events {
        switch event {
        case .key(let key):
            var base = key
            if case .modified(let inner, _) = key { base = inner }
            if case .character(let character) = base {
                for scalar in character.unicodeScalars {
                    precondition(scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80...0x9F).contains(scalar.value),
                                 "a control character arrived as text")
                }
            }
        case .paste(let text):
            precondition(text.utf8.count <= 2 * (InputDecoder.pasteChunkLimit + 8), "a paste piece over its bound")  // a Latin-1 byte is up to two in UTF-8
        default: break
        }
    }
}

let charsets: [InputCharset] = [.utf8, .ascii, .latin1]

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for charset in charsets {
        let whole = decodeWhole(bytes, charset)
        check(whole)

        var decoder = InputDecoder(charset: charset)
        var split: [Event] = []
        for piece in chunked(bytes, longest: 17) { split += decoder.feed(piece) }
        split += decoder.timeout()
        precondition(split == whole, "the events depend on how the bytes were cut")

        // The escape delay passing after every read: still no trap, nothing left half read.
        var hurried = InputDecoder(charset: charset)
        var events: [Event] = []
        for piece in chunked(bytes, longest: 17) {
            events += hurried.feed(piece)
            if hurried.isWaiting { events += hurried.timeout() }
            precondition(!hurried.isWaiting, "still waiting after a timeout")
        }
        check(events)
    }

    // Inside a string, nothing is a key: the body without what ends a string.
    let body = bytes.filter { $0 != 0x1B && $0 != 0x07 && $0 != 0x18 && $0 != 0x1A }
    for introducer: [UInt8] in [[0x1B, 0x50], [0x1B, 0x5D], [0x1B, 0x5F]] {
        let events = decodeWhole(introducer + body + [0x1B, 0x5C], .utf8)
        precondition(events.isEmpty, "a string's body gave an event")
    }
    return 0
}

exit(runLibFuzzer(testOneInput))
