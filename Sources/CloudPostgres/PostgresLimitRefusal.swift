import Cloud
import PostgresNIO

/// Reads the limit the server's `wonderland_write` refused a batch for (SQLSTATE WLK01, WLQ01,
/// WLQ02, the numbers in the detail) back into the store's own error.
enum PostgresLimitRefusal {
    static func limitError(from error: PSQLError) -> KeyValueStoreLimitError? {
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return nil }
        let detail = error.serverInfo?[.detail] ?? ""
        let parts = detail.split(separator: " ", maxSplits: 2).map(String.init)
        let numbers = parts.prefix(2).compactMap { Int($0) }
        guard numbers.count == 2 else { return nil }
        switch state {
        case "WLK01":
            let key = parts.count > 2 ? parts[2] : ""
            return key.isEmpty ? .emptyKey : .keyTooLong(key: key, bytes: numbers[0], limit: numbers[1])
        case "WLQ01": return .tooManyKeys(count: numbers[0], limit: numbers[1])
        case "WLQ02": return .tooLarge(bytes: numbers[0], limit: numbers[1])
        default: return nil
        }
    }
}
