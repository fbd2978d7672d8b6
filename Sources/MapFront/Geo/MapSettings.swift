/// HPMapType: how the world is drawn.
public enum MapType: Int, CaseIterable, Sendable {
    /// Outlines: coastlines and borders.
    case standard = 0
    /// Land and ocean filled (colour, or shaded blocks without colour).
    case satellite = 1
    /// Filled, plus boundaries and city labels.
    case hybrid = 2

    public var name: String {
        switch self {
        case .standard: return "Standard"
        case .satellite: return "Satellite"
        case .hybrid: return "Hybrid"
        }
    }
}

/// HPFollowHeading: what the map does as the current location moves. Registered default:
/// follow, as Pigeon does.
public enum TrackingMode: Int, CaseIterable, Sendable {
    case none = 0
    case follow = 1
    case followWithHeading = 2

    public var name: String {
        switch self {
        case .none: return "None"
        case .follow: return "Follow"
        case .followWithHeading: return "Follow with heading"
        }
    }
}
