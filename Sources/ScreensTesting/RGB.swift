/// A colour as a terminal puts it on the screen: 8 bits a channel, sRGB.
public struct RGB: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    /// A colour from its hex form, `0xCD0000` for xterm's red.
    public init(_ hex: UInt32) {
        red = UInt8((hex >> 16) & 0xFF)
        green = UInt8((hex >> 8) & 0xFF)
        blue = UInt8(hex & 0xFF)
    }

    /// `#cd0000`.
    public var description: String {
        "#" + [red, green, blue].map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// WCAG 2's relative luminance: each channel linearised from sRGB, weighted as the eye
    /// weighs them (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance).
    public var relativeLuminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.04045 ? value / 12.92 : power2point4((value + 0.055) / 1.055)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2's contrast ratio, 1 (none) to 21 (black on white), the same either way round
    /// (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio).
    public func contrast(with other: RGB) -> Double {
        let (a, b) = (relativeLuminance, other.relativeLuminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// This colour moved `fraction` of the way to `other`, channel by channel: how a terminal
    /// that fades faint text into its background shows it.
    public func mixed(with other: RGB, fraction: Double) -> RGB {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt32 { UInt32((Double(a) + (Double(b) - Double(a)) * fraction).rounded()) }
        return RGB(mix(red, other.red) << 16 | mix(green, other.green) << 8 | mix(blue, other.blue))
    }
}

/// x^2.4 for 0 < x ≤ 1, the sRGB curve's exponent, as the fifth root of x^12 by Newton's method
/// (from x², which lies above the root, so every step comes down to it): ScreensTesting has no
/// maths library to call.
private func power2point4(_ x: Double) -> Double {
    let target = x * x * x * x * x * x * x * x * x * x * x * x
    var root = x * x
    for _ in 0..<200 {
        let next = root - (root * root * root * root * root - target) / (5 * root * root * root * root)
        if next >= root { break }
        root = next
    }
    return root
}
