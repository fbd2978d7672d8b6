import Defaults
import KeyedArchive
import Restoration
import Screens

// The Map tab (issue 6: the Pigeon front). Still a placeholder page.

enum MapTab {
    static let settingKeys = ["HPMapType", "HPFollowHeading", "WLUnits", "HPSyncLocations"]

    static func make(services: AppServices) -> Screen {
        SettingsAwarePager(title: "Map", introduction: """
            The Pigeon front: an offline world map lives here.

            It will remember the place you are at under a title, show the bearing and distance \
            to it, and keep its map type and tracking mode between launches.
            """, keys: settingKeys, services: services, restorationIdentifier: "Map")
    }
}

extension MapTab {
    static func registerRestorationClasses(in registry: inout RestorationClassRegistry, services: AppServices) {}
}
