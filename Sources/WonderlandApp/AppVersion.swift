/// The version `--version` prints and every restoration archive records. A change to what is
/// saved, or to a saved identifier, bumps it (CHANGELOG.md says what each one changed).
public enum AppVersion {
    public static let current = "0.5.0"
}
