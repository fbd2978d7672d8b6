import CloudServer
import FoundationEssentials
import MapFront
import Platform
import Settings

/// The forms of wonderland's own text settings, each checked by the parser that reads it:
/// Manual Location by `LocationText` (as `--location`), gpsd Address by `GPSDAddress` (as
/// WONDERLAND_GPSD), Sync Server by `PostgresSyncAddress` (as WONDERLAND_SYNC_URL), Sync
/// Folder by `CloudSettings`, the profile's e-mail by `ProfileEmail`. A password in the Sync
/// Server address is not a matter of form: the address parses, and `CloudServerSettingGuard`
/// refuses it with the advice of where it goes instead.
extension SettingFormats {
    public static let wonderland = SettingFormats([
        LocationSourceFactory.manualLocationKey: { text in
            if case .failure(let error) = LocationText.parse(text.trimmingSpaces()) { return error.description }
            return nil
        },
        LocationSourceFactory.gpsdAddressKey: { text in
            if case .failure(let error) = GPSDAddress.parse(text) { return error.description }
            return nil
        },
        CloudSettings.syncServerKey: { text in
            do {
                _ = try PostgresSyncAddress(parsing: text)
                return nil
            } catch {
                return "\(error)"
            }
        },
        CloudSettings.syncFolderKey: CloudSettings.folderProblem,
        ProfileEmail.key: ProfileEmail.problem,
    ])
}

/// The Profile pane's e-mail, which goes on exported notes: `name@domain`, no spaces.
public enum ProfileEmail {
    public static let key = "WLProfileEmail"

    public static func problem(_ text: String) -> String? {
        let address = text.trimmingSpaces()
        guard !address.contains(where: { $0.isWhitespace || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) else {
            return "an e-mail address has no spaces"
        }
        guard let at = address.lastIndex(of: "@"), at != address.startIndex else {
            return "expected an address like alice@example.org"
        }
        let domain = address[address.index(after: at)...]
        guard !domain.isEmpty, !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains("..") else {
            return "“\(domain)” is not a mail domain"
        }
        return nil
    }
}
