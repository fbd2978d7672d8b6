import Defaults
import MapFront
import Restoration
import Screens

// The Map tab (issue 6: the Pigeon front): the map screen, given a drawer of the world and a
// source of the current location. Both come from factories the wiring can replace — the
// Natural Earth renderer and gpsd plug in here without the screen knowing.

enum MapTab {
    /// What draws the world. The graticule until a geodata renderer is wired in.
    nonisolated(unsafe) static var makeDrawer: (AppServices) -> MapDrawing = { _ in GraticuleDrawer() }

    /// Where the current location comes from: `--location LAT,LON` when given, else the
    /// source for this machine (none yet: gpsd plugs in here).
    nonisolated(unsafe) static var makeLocationSource: (AppServices) -> LocationSource = { services in
        if let text = services.launch.location { return LocationArgument.source(for: text) }
        return makeDeviceLocationSource(services)
    }

    /// The location source used without `--location`.
    nonisolated(unsafe) static var makeDeviceLocationSource: (AppServices) -> LocationSource = { _ in
        UnavailableLocationSource(reason: "start with --location LAT,LON")
    }

    static func make(services: AppServices) -> Screen {
        MapScreen(drawer: makeDrawer(services), location: makeLocationSource(services), store: services.store,
                  restorationIdentifier: MapScreen.restorationID)
    }
}

extension MapTab {
    /// The map screen is made at start-up, so the engine finds it by identifier; the modals it
    /// presents (prompt, confirm, search) belong to the moment and are not saved.
    static func registerRestorationClasses(in registry: inout RestorationClassRegistry, services: AppServices) {}
}
