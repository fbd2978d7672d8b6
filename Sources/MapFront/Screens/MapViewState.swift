/// What the map screen shows, apart from the settings and the pin: small, a value, and what
/// the restoration engine saves. Every move is expressed in dots of the braille raster, so it
/// means the same at every zoom level.
public struct MapViewState: Hashable, Sendable {
    public var viewport: MapViewport
    /// A hand pan (keys, mouse, a search) while following: the map stops recentring on the
    /// location until the user asks again (`.`, `t`, or a tracking change from the settings).
    /// The HPFollowHeading setting itself is not touched, so an accidental pan never changes
    /// what the next launch does.
    public var trackingPaused = false
    /// The place picked in a search, drawn highlighted until cleared.
    public var selectedPlace: SelectedPlace?

    public init(viewport: MapViewport = .world) {
        self.viewport = viewport
    }

    /// Moves the view by a number of dots: positive x shows what is east, positive y what is
    /// south. Longitude wraps past ±180°, latitude stops at the poles.
    public mutating func pan(dotsX: Double, dotsY: Double) {
        let degrees = viewport.degreesPerDot
        let center = GeoPoint(latitude: viewport.center.latitude - dotsY * degrees,
                              longitude: viewport.center.longitude + dotsX * degrees)
        viewport = MapViewport(exactly: center, zoom: viewport.zoom)
    }

    /// Changes the zoom level by `steps`, keeping the point at dot offset (dx, dy) from the
    /// centre where it is on screen (the mouse pointer); (0, 0) zooms around the centre.
    public mutating func zoom(by steps: Int, keepingDotOffsetX dx: Double = 0, y dy: Double = 0) {
        let old = viewport
        let newZoom = min(MapViewport.zoomLevels.upperBound, max(MapViewport.zoomLevels.lowerBound, old.zoom + steps))
        guard newZoom != old.zoom else { return }
        let oldDegrees = old.degreesPerDot
        let newDegrees = MapViewport(center: old.center, zoom: newZoom).degreesPerDot
        // The point under the pointer before, and where the centre must go so it stays there.
        let anchorLongitude = old.center.longitude + dx * oldDegrees
        let anchorLatitude = old.center.latitude - dy * oldDegrees
        let center = GeoPoint(latitude: anchorLatitude + dy * newDegrees, longitude: anchorLongitude - dx * newDegrees)
        viewport = MapViewport(exactly: center, zoom: newZoom)
    }

    public mutating func center(on point: GeoPoint) {
        viewport = MapViewport(exactly: point, zoom: viewport.zoom)
    }
}

extension MapViewport {
    /// A viewport on `center` as given when it is already on the globe: normalising wraps the
    /// longitude through arithmetic, which moves a point like -0.1278° by a few ulps, and a
    /// followed location or a pin should be the centre exactly, not nearly.
    public init(exactly center: GeoPoint, zoom: Int) {
        self.init(center: center, zoom: zoom)
        if center.isValid { self.center = center }
    }
}

/// A place chosen in a search: its name and where it is, which is all a relaunch needs.
public struct SelectedPlace: Hashable, Sendable {
    public var name: String
    public var coordinate: GeoPoint

    public init(name: String, coordinate: GeoPoint) {
        self.name = name
        self.coordinate = coordinate
    }
}
