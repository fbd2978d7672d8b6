import Defaults
import MapFront
import Restoration
import Screens

// The Map tab (the Pigeon front): the map screen, given a drawer of the world and a
// source of the current location. Each comes from one factory below, so the Natural Earth
// renderer and gpsd plug in here without the screen knowing.

enum MapTab {
    static func make(services: AppServices) -> Screen {
        let map = MapScreen(drawer: makeDrawer(services), location: makeLocationSource(services), store: services.store,
                            restorationIdentifier: MapScreen.restorationID)
        // With no saved place and no book asked for, the first frame is this map: its data is
        // read while the rest of the app launches. A restored map starts its own when decoded.
        if !services.launch.hasSavedPlace && services.launch.bookPath == nil { map.beginLoadingForFirstFrame() }
        return map
    }

    /// What draws the world: Natural Earth from Debian's libmagics++-data, loaded in the
    /// background (the first frame never waits for it), each scale indexed once into the
    /// user's cache folder and mapped from there after.
    static func makeDrawer(_ services: AppServices) -> MapDrawing {
        ShapefileMapRenderer(catalog: MapDataCatalog(levelCache: MapLevelCache.standard(environment: services.launch.environment)))
    }

    /// Where the current location comes from: `--location LAT,LON`, else the Manual Location
    /// setting, else gpsd (its address from WONDERLAND_GPSD or the gpsd Address setting). A bad
    /// value is said in the status line and passed over; a setting changed while the app runs
    /// takes effect at once.
    static func makeLocationSource(_ services: AppServices) -> LocationSource {
        CurrentLocation(commandLine: services.launch.location, store: services.store, environment: services.launch.environment)
    }
}

extension MapTab {
    /// The map screen is made at start-up, so the engine finds it by identifier. Of the modals
    /// it presents, the pin's title prompt keeps its draft across a relaunch (it is rebuilt
    /// here, as it saves the pin itself); the place finder's name is saved with the map, which
    /// opens it again; the clear confirmation belongs to the moment and is not saved.
    static func registerRestorationClasses(in registry: inout RestorationClassRegistry, services: AppServices) {
        RememberPlacePrompt.register(in: &registry, store: services.store)
    }
}
