import FoundationEssentials
import Platform

/// Where gpsd listens: `host:port`, `host` (port 2947), or `[v6-address]:port`.
public struct GPSDAddress: Hashable, Sendable, CustomStringConvertible {
    public static let defaultPort = 2947
    public static let standard = GPSDAddress(host: "localhost", port: defaultPort)

    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Parses the text of WONDERLAND_GPSD or the setting; the error says what is wrong in words.
    public static func parse(_ text: String) -> Result<GPSDAddress, LocationInputError> {
        let trimmed = text.trimmingSpaces()
        guard !trimmed.isEmpty else { return .failure(LocationInputError("is empty")) }
        var host = trimmed
        var portText: Substring?
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { return .failure(LocationInputError("has “[” without “]”")) }
            host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
            let rest = trimmed[trimmed.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return .failure(LocationInputError("expected “:PORT” after “]”")) }
                portText = rest.dropFirst()
            }
        } else if let colon = trimmed.lastIndex(of: ":") {
            guard trimmed.firstIndex(of: ":") == colon else {
                return .failure(LocationInputError("an IPv6 address needs brackets: [::1]:2947"))
            }
            host = String(trimmed[..<colon])
            portText = trimmed[trimmed.index(after: colon)...]
        }
        guard !host.isEmpty else { return .failure(LocationInputError("has no host")) }
        guard !host.contains(where: { $0.isWhitespace || $0 == "/" }) else {
            return .failure(LocationInputError("“\(host)” is not a host name"))
        }
        var port = defaultPort
        if let portText {
            guard portText.allSatisfy(\.isASCII), let number = Int(portText), (1...65_535).contains(number) else {
                return .failure(LocationInputError("port “\(portText)” is not a number from 1 to 65535"))
            }
            port = number
        }
        return .success(GPSDAddress(host: host, port: port))
    }
}

/// Why text given for a location or an address could not be used, in words for the map's status.
public struct LocationInputError: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
