/// "48.8566,2.3522": a location typed by a person, read strictly (plain decimal degrees,
/// latitude first, a comma between), so a mistake is reported rather than guessed at.
public enum LocationText {
    public static let example = "48.8566,2.3522"

    public static func parse(_ text: String) -> Result<GeoPoint, LocationInputError> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmed(of: " \t") }
        if parts.count == 1 && parts[0].isEmpty { return .failure(LocationInputError("is empty")) }
        guard parts.count == 2 else {
            return .failure(LocationInputError("expected LAT,LON in decimal degrees, like \(example)"))
        }
        guard let latitude = degrees(parts[0]) else {
            return .failure(LocationInputError("latitude “\(parts[0])” is not a decimal number"))
        }
        guard let longitude = degrees(parts[1]) else {
            return .failure(LocationInputError("longitude “\(parts[1])” is not a decimal number"))
        }
        guard abs(latitude) <= 90 else {
            return .failure(LocationInputError("latitude \(parts[0]) is outside -90…90"))
        }
        guard abs(longitude) <= 180 else {
            return .failure(LocationInputError("longitude \(parts[1]) is outside -180…180"))
        }
        return .success(GeoPoint(latitude: latitude, longitude: longitude))
    }

    /// `[+-]digits[.digits]` or `[+-].digits`: no exponents, no nan, no hex, which Double(_:)
    /// would all accept.
    private static func degrees(_ text: String) -> Double? {
        var body = Substring(text)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        let pieces = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count), pieces.contains(where: { !$0.isEmpty }),
              pieces.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              body.count <= 32 else { return nil }
        return Double(text)
    }
}

extension String {
    fileprivate func trimmed(of set: String) -> String {
        var result = Substring(self)
        while let first = result.first, set.contains(first) { result = result.dropFirst() }
        while let last = result.last, set.contains(last) { result = result.dropLast() }
        return String(result)
    }
}
