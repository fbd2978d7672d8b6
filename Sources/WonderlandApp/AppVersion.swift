/// The version `--version` prints and every restoration archive records.
public enum AppVersion {
    public static let current = "0.3.0"
}
