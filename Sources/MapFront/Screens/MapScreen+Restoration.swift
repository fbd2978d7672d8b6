import KeyedArchive

/// What a relaunch brings back: the viewport as a place and a zoom level (never screen cells,
/// so another terminal size shows the same place at the same scale), whether following was
/// paused by a hand pan, and the place found last. The pin and the settings are not here:
/// they live in the defaults, where Pigeon keeps them.
extension MapScreen {
    enum RestorationKey {
        static let latitude = "centerLatitude"
        static let longitude = "centerLongitude"
        static let zoom = "zoom"
        static let trackingPaused = "trackingPaused"
        static let placeName = "selectedPlaceName"
        static let placeLatitude = "selectedPlaceLatitude"
        static let placeLongitude = "selectedPlaceLongitude"
    }

    func encodeState(with coder: KeyedArchiver) throws {
        coder.encode(state.viewport.center.latitude, forKey: RestorationKey.latitude)
        coder.encode(state.viewport.center.longitude, forKey: RestorationKey.longitude)
        coder.encode(state.viewport.zoom, forKey: RestorationKey.zoom)
        coder.encode(state.trackingPaused, forKey: RestorationKey.trackingPaused)
        if let place = state.selectedPlace {
            try coder.encode(place.name, forKey: RestorationKey.placeName)
            coder.encode(place.coordinate.latitude, forKey: RestorationKey.placeLatitude)
            coder.encode(place.coordinate.longitude, forKey: RestorationKey.placeLongitude)
        }
    }

    /// Each value is taken only when it is there, of the right type and on the globe; anything
    /// else keeps what the screen had, so a damaged or older archive costs that value only.
    func decodeState(with coder: KeyedUnarchiver) {
        func double(_ key: String) -> Double? {
            guard coder.containsValue(forKey: key), let value = try? coder.decodeDouble(forKey: key), value.isFinite else { return nil }
            return value
        }
        var restored = state
        if let latitude = double(RestorationKey.latitude), let longitude = double(RestorationKey.longitude) {
            let center = GeoPoint(latitude: latitude, longitude: longitude)
            if center.isValid { restored.viewport = MapViewport(exactly: center, zoom: restored.viewport.zoom) }
        }
        if coder.containsValue(forKey: RestorationKey.zoom), let zoom = try? coder.decodeInteger(forKey: RestorationKey.zoom),
           MapViewport.zoomLevels.contains(zoom) {
            restored.viewport = MapViewport(exactly: restored.viewport.center, zoom: zoom)
        }
        if coder.containsValue(forKey: RestorationKey.trackingPaused), let paused = try? coder.decodeBool(forKey: RestorationKey.trackingPaused) {
            restored.trackingPaused = paused
        }
        if let name = try? coder.decodeObject(of: String.self, forKey: RestorationKey.placeName),
           let latitude = double(RestorationKey.placeLatitude), let longitude = double(RestorationKey.placeLongitude) {
            let coordinate = GeoPoint(latitude: latitude, longitude: longitude)
            if coordinate.isValid { restored.selectedPlace = SelectedPlace(name: name, coordinate: coordinate) }
        }
        state = restored
        setNeedsDisplay()
    }
}
