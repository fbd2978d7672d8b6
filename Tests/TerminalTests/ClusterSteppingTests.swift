import Testing
@testable import Terminal

/// The byte scans behind the ASCII shortcut, eight bytes at a time, against the rule read byte
/// by byte over every byte value and every alignment.
@Suite struct ClusterSteppingTests {
    struct Numbers: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// Mostly plain letters, so the eight-byte steps run, with a sprinkling of everything else.
    func randomBytes(_ count: Int, _ numbers: inout Numbers) -> [UInt8] {
        (0..<count).map { _ in
            Int.random(in: 0..<10, using: &numbers) == 0 ? UInt8.random(in: 0...255, using: &numbers) : UInt8.random(in: 0x20...0x7E, using: &numbers)
        }
    }

    /// A random buffer and a random stretch of it.
    func randomCase(_ numbers: inout Numbers) -> (bytes: [UInt8], from: Int, limit: Int) {
        let bytes = randomBytes(Int.random(in: 0...70, using: &numbers), &numbers)
        let from = Int.random(in: 0...bytes.count, using: &numbers)
        return (bytes, from, Int.random(in: from...bytes.count, using: &numbers))
    }

    @Test func theFirstControlOrNonASCIIByteIsFoundWhereverItIs() {
        var numbers = Numbers(state: 5)
        for _ in 0..<2_000 {
            let (bytes, from, limit) = randomCase(&numbers)
            let expected = (from..<limit).first { bytes[$0] >= 0x80 || bytes[$0] < 0x0E } ?? limit
            bytes.withUnsafeBufferPointer { buffer in
                #expect(ClusterStepping.firstControlOrNonASCII(buffer, from: from, limit: limit) == expected, "\(bytes) \(from)..<\(limit)")
            }
        }
        // Every byte value, alone in a run of letters at each alignment.
        for value in 0...255 {
            for position in 0..<16 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 24)
                bytes[position] = UInt8(value)
                let expected = value >= 0x80 || value < 0x0E ? position : 24
                bytes.withUnsafeBufferPointer { #expect(ClusterStepping.firstControlOrNonASCII($0, from: 0, limit: 24) == expected) }
            }
        }
    }

    @Test func aByteOfOneValueIsFoundEightAtATimeAsOneByOne() {
        var numbers = Numbers(state: 7)
        for _ in 0..<2_000 {
            let (bytes, from, limit) = randomCase(&numbers)
            let value = [UInt8(ascii: " "), 0x09, 0x00, 0xFF].randomElement(using: &numbers)!
            let expected = (from..<limit).first { bytes[$0] == value } ?? limit
            bytes.withUnsafeBufferPointer { buffer in
                let found = ByteScan.first(in: buffer, from: from, limit: limit, wordMayHold: { ByteScan.hasByte(value, in: $0) }, matches: { $0 == value })
                #expect(found == expected, "\(value) in \(bytes) \(from)..<\(limit)")
            }
        }
    }

    @Test func aLoneASCIIRunEndsWhereTheByteByByteRuleEndsIt() {
        var numbers = Numbers(state: 6)
        for _ in 0..<2_000 {
            let (bytes, from, limit) = randomCase(&numbers)
            bytes.withUnsafeBufferPointer { buffer in
                var expected = from
                while expected < limit && ClusterStepping.isLoneASCII(buffer, at: expected) && buffer[expected] != 0x0D { expected += 1 }
                #expect(ClusterStepping.loneASCIIRunEnd(buffer, from: from, limit: limit) == expected, "\(bytes) \(from)..<\(limit)")
            }
        }
    }
}
