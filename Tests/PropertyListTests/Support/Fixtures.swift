import Foundation
@testable import PropertyList

enum Fixtures {
    /// Exercises every value type and the size classes of both formats: counts past the
    /// 4-bit nibble, integers of each width, ASCII, BMP and astral (surrogate-pair) strings.
    /// Dates are whole seconds, the precision XML keeps.
    static let mixed: PropertyListValue = .dictionary([
        "ascii": .string("hello, world"),
        "empty": .string(""),
        "accents": .string("Ça va? naïve café"),
        "emoji": .string("rabbit 🐇 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"),
        "markup": .string("<a href=\"x\">&amp;</a> 'quoted'\ttab\nnewline"),
        "long": .string(String(repeating: "Down the rabbit hole. ", count: 40)),
        "integers": .array([0, 1, -1, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296,
                             Int64.max, Int64.min, -42].map(PropertyListValue.integer)),
        "reals": .array([0.0, -0.0, 1.5, -2.25, 3.141592653589793, 1e300, -1e-300, .infinity, -.infinity]
            .map(PropertyListValue.real)),
        "booleans": .array([.boolean(true), .boolean(false)]),
        "dates": .array([.date(Date(timeIntervalSinceReferenceDate: 0)),
                         .date(Date(timeIntervalSinceReferenceDate: 700_000_000)),
                         .date(Date(timeIntervalSinceReferenceDate: -1_000_000_000))]),
        "data": .array([.data(Data()), .data(Data([0, 1, 2, 255])), .data(Data((0..<1000).map { UInt8($0 % 256) }))]),
        "nested": .dictionary([
            "level": .integer(1),
            "deeper": .array([.dictionary(["level": .integer(2), "list": .array(Array(repeating: .string("same"), count: 20))])]),
            "empties": .array([.array([]), .dictionary([:])]),
        ]),
        "ünïcödé key": .boolean(true),
    ])

    static func withUID(_ value: PropertyListValue) -> PropertyListValue {
        guard case .dictionary(var d) = value else { return value }
        d["uids"] = .array([.uid(0), .uid(255), .uid(256), .uid(70_000), .uid(5_000_000_000)])
        return .dictionary(d)
    }
}
