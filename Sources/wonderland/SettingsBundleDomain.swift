import Defaults
import FoundationEssentials
import Platform
import Settings

/// Where `wonderland settings --bundle DIR` keeps another app's settings: a defaults file of its
/// own beside wonderland's defaults.plist, named after the bundle, so the two never mix.
enum SettingsBundleDomain {
    /// `/…/UTM/Settings.bundle` is "UTM" (every bundle is called Settings, so its folder names
    /// it); `/…/Extra.bundle` is "Extra". Only letters, digits, "-", "_" and "." are kept.
    static func name(of directory: URL) -> String {
        let own = directory.standardizedFileURL.deletingPathExtension().lastPathComponent
        let named = own == "Settings" ? directory.standardizedFileURL.deletingLastPathComponent().lastPathComponent : own
        let kept = String(named.unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) })
        let trimmed = kept.trimmingScalars(where: { $0 == "." })
        return trimmed.isEmpty ? "bundle" : trimmed
    }

    /// `bundle-NAME.plist` beside defaults.plist: the prefix keeps a bundle called "defaults"
    /// from ever landing on wonderland's own file.
    static func fileURL(for directory: URL, environment: [String: String]) -> URL {
        DefaultsStore.standardFileURL(environment: environment).deletingLastPathComponent()
            .appendingPathComponent("bundle-\(name(of: directory)).plist")
    }
}
