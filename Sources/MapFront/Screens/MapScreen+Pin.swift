import FoundationEssentials
import Screens

/// Remember this place (Pigeon's saveAnnotation / clearAnnotation): the pin goes into the
/// store the moment it is set or cleared — capture at change, the rule for values
/// that change rarely.
extension MapScreen {
    /// Where "remember this place" puts the pin: the current location, or else the map's
    /// centre, and words saying which.
    var pinTarget: (point: GeoPoint, origin: String) {
        if let fix = location.currentFix, fix.coordinate.isValid { return (fix.coordinate, "your location") }
        return (state.viewport.center, "the map centre: there is no current location")
    }

    /// The nearest populated place within reach, for the pin's default title.
    func nearbyPlaceName(to point: GeoPoint) -> String? {
        var best: (name: String, distance: Double)?
        for place in drawer.placesWaitingForLoad() {
            let distance = Geodesy.distance(from: point, to: place.coordinate)
            if distance <= Self.nearbyPlaceDistance, distance < (best?.distance ?? .infinity) { best = (place.name, distance) }
        }
        return best?.name
    }

    func presentRememberPrompt() {
        let target = pinTarget
        let suggestion = nearbyPlaceName(to: target.point) ?? target.point.description
        let prompt = RememberPlacePrompt(target: target.point, origin: target.origin, suggestion: suggestion, store: store) { [weak self] pin, error in
            guard let self else { return }
            self.pin = pin
            if let error {
                self.notice = Self.notSavedNotice(error)
            } else if self.location.currentFix == nil {
                self.notice = "Pinned the map centre: there is no current location."
            }
            self.setNeedsDisplay()
        }
        present(prompt)
    }

    func presentClearConfirmation() {
        guard let pin else { return }
        let confirm = Confirm(title: "Clear the pin", message: "Forget “\(pin.displayTitle)” at \(pin.coordinate)?") { [weak self] yes in
            if yes { self?.setPin(nil) }
        }
        present(confirm)
    }

    /// Sets or clears the pin and writes it to the store at once.
    public func setPin(_ newPin: MapPin?) {
        pin = newPin
        do { try MapPin.save(newPin, to: store) } catch { notice = Self.notSavedNotice(error) }
        setNeedsDisplay()
    }

    /// Said when a change the user expects kept at once could not be written to disk.
    static func notSavedNotice(_ error: Error) -> String {
        "Not yet on disk (kept; saved at the next chance): \(error)"
    }

    /// The bearing and distance from the current location to the pin, when there are both.
    public var pinGuide: PinGuide? {
        guard let pin, let fix = location.currentFix, fix.coordinate.isValid else { return nil }
        return PinGuide(from: fix.coordinate, to: pin.coordinate)
    }

    /// Opens the place finder, empty or, after a relaunch, with the name as it was typed.
    func presentSearch(typed: TextFieldState? = nil) {
        let search = PlaceSearchScreen(source: { [unowned self] in
            _ = self.drawer.takeLoadedData()  // the finder may hear of loading before the map does
            return (self.placeSearch, self.drawer.placesStatus())
        }) { [weak self] place in
            guard let self, let place else { return }
            self.selectPlace(place)
        }
        if let typed { search.resume(typed) }
        keptSearch.asking(search, kind: "PlaceSearch")
        present(search)
    }
}
