import Cloud
import PropertyList

/// What the app asks its sync helper, one request at a time (as the store calls its backend),
/// with `wake` the exception: it may come while a `wait` runs, and is never answered.
public enum SyncHelperRequest: Equatable, Sendable {
    /// The first message: which server, as whom, with which password. The password travels
    /// only here, never on the helper's command line or in its environment.
    case open(address: PostgresSyncAddress, password: String?, device: DeviceIdentifier, options: SyncServerOptions)
    case append([ChangeRecord])
    case fetch
    case wait(timeout: Double)
    case wake
    /// `wonderland cloud check`: audit the database for a team (roles, grants, owners,
    /// triggers, TLS) on a connection of its own, which creates nothing; answered by `findings`
    /// or `unavailable`.
    case check

    /// Bumped when a message changes meaning; the helper says which it speaks in `ready`.
    /// 2: `check` and its `findings`; the address's `wait` and password methods, the poll
    /// interval and quiet period, and whether a fetch read the server from its start.
    public static let protocolVersion = 2

    public var propertyList: PropertyListValue {
        switch self {
        case .open(let address, let password, let device, let options):
            var fields: [String: PropertyListValue] = [
                "call": .string("open"),
                "user": .string(address.user), "host": .string(address.host), "port": .integer(Int64(address.port)),
                "database": .string(address.database), "tls": .string(address.tls.rawValue),
                "device": .string(device.rawValue),
                "connectTimeout": .real(options.connectTimeout), "queryTimeout": .real(options.queryTimeout),
                "initialBackoff": .real(options.initialBackoff), "maximumBackoff": .real(options.maximumBackoff),
                "fetchPageSize": .integer(Int64(options.fetchPageSize)),
                "pollInterval": .real(options.pollInterval), "quietPeriod": .real(options.quietPeriod),
                "wait": .string(address.newsWait.rawValue),
                "passwordMethods": .array(address.passwordMethods.sorted().map { .string($0.rawValue) }),
            ]
            if let root = address.rootCertificate { fields["rootCertificate"] = .string(root) }
            if let password { fields["password"] = .string(password) }
            return .dictionary(fields)
        case .append(let records):
            return .dictionary(["call": .string("append"), "records": .array(records.map(SyncHelperRecordCoding.value(of:)))])
        case .fetch:
            return .dictionary(["call": .string("fetch")])
        case .wait(let timeout):
            return .dictionary(["call": .string("wait"), "timeout": .real(timeout)])
        case .wake:
            return .dictionary(["call": .string("wake")])
        case .check:
            return .dictionary(["call": .string("check")])
        }
    }

    public init(propertyList value: PropertyListValue) throws {
        let fields = try SyncHelperFields(value, what: "a request")
        switch try fields.string("call") {
        case "open":
            guard let tls = PostgresSyncAddress.TLSMode(rawValue: try fields.string("tls")) else {
                throw SyncHelperFailure("a request's tls is not an sslmode this app knows")
            }
            guard let device = DeviceIdentifier(try fields.string("device")) else {
                throw SyncHelperFailure("a request's device is not a device identifier")
            }
            guard let newsWait = PostgresSyncAddress.NewsWait(rawValue: try fields.string("wait")) else {
                throw SyncHelperFailure("a request's wait is not one this app knows")
            }
            let methods = try Self.strings(try fields.array("passwordMethods"), what: "a request's password methods")
            guard methods.count <= PostgresSyncAddress.PasswordMethod.allCases.count else {
                throw SyncHelperFailure("a request names too many password methods")
            }
            var passwordMethods: Set<PostgresSyncAddress.PasswordMethod> = []
            for name in methods {
                guard let method = PostgresSyncAddress.PasswordMethod(rawValue: name) else {
                    throw SyncHelperFailure("a request's password method \(name) is not one this app knows")
                }
                passwordMethods.insert(method)
            }
            let address = PostgresSyncAddress(user: try fields.string("user"), host: try fields.string("host"), port: try fields.int("port"),
                                              database: try fields.string("database"), tls: tls,
                                              rootCertificate: try fields.optionalString("rootCertificate"),
                                              newsWait: newsWait, passwordMethods: passwordMethods)
            let options = SyncServerOptions(connectTimeout: try fields.double("connectTimeout"), queryTimeout: try fields.double("queryTimeout"),
                                            initialBackoff: try fields.double("initialBackoff"), maximumBackoff: try fields.double("maximumBackoff"),
                                            fetchPageSize: try fields.int("fetchPageSize"),
                                            pollInterval: try fields.double("pollInterval"), quietPeriod: try fields.double("quietPeriod"))
            self = .open(address: address, password: try fields.optionalString("password"), device: device, options: options)
        case "append":
            self = .append(try fields.array("records").map(SyncHelperRecordCoding.record(from:)))
        case "fetch":
            self = .fetch
        case "wait":
            self = .wait(timeout: try fields.double("timeout"))
        case "wake":
            self = .wake
        case "check":
            self = .check
        case let other:
            throw SyncHelperFailure("a request asks for \(other.prefix(40)), which the helper does not know")
        }
    }
}

/// What the helper answers. A fetch may take several `records` replies, all but the last with
/// `more`, so no frame grows with the store.
public enum SyncHelperReply: Equatable {
    case ready(protocolVersion: Int)
    case done
    /// `fromStart`: the fetch read the server from its first change, so the records are all it
    /// holds (sent with the last frame).
    case records([ChangeRecord], more: Bool, readProblems: [String], fromStart: Bool)
    /// The server could not be reached or read; the reason as the user will read it.
    case unavailable(reason: String)
    /// The server refused a whole batch for one of the store's limits.
    case refused(limit: KeyValueStoreLimitError, keys: [String])
    /// What `check` found, in the order the checks ran.
    case findings([ServerCheckFinding])

    /// The reply that carries `error` to the app, which throws the same again.
    public init(error: any Error) {
        switch error {
        case let refusal as BackendRefusal: self = .refused(limit: refusal.limit, keys: refusal.keys)
        case let unavailable as BackendUnavailable: self = .unavailable(reason: unavailable.reason)
        default: self = .unavailable(reason: "\(error)")
        }
    }

    /// The error a failure reply stands for, as the backend in the helper threw it; nil for
    /// the other replies.
    public var error: (any Error)? {
        switch self {
        case .unavailable(let reason): BackendUnavailable(reason: reason)
        case .refused(let limit, let keys): BackendRefusal(limit: limit, keys: keys)
        default: nil
        }
    }

    public var propertyList: PropertyListValue {
        switch self {
        case .ready(let version):
            return .dictionary(["reply": .string("ready"), "protocol": .integer(Int64(version))])
        case .done:
            return .dictionary(["reply": .string("done")])
        case .records(let records, let more, let readProblems, let fromStart):
            return .dictionary(["reply": .string("records"), "records": .array(records.map(SyncHelperRecordCoding.value(of:))),
                                "more": .boolean(more), "readProblems": .array(readProblems.map(PropertyListValue.string)),
                                "fromStart": .boolean(fromStart)])
        case .unavailable(let reason):
            return .dictionary(["reply": .string("unavailable"), "reason": .string(reason)])
        case .refused(let limit, let keys):
            return .dictionary(["reply": .string("refused"), "limit": SyncHelperRecordCoding.value(of: limit),
                                "keys": .array(keys.map(PropertyListValue.string))])
        case .findings(let findings):
            return .dictionary(["reply": .string("findings"), "findings": .array(findings.map(\.propertyList))])
        }
    }

    public init(propertyList value: PropertyListValue) throws {
        let fields = try SyncHelperFields(value, what: "a reply")
        switch try fields.string("reply") {
        case "ready":
            self = .ready(protocolVersion: try fields.int("protocol"))
        case "done":
            self = .done
        case "records":
            self = .records(try fields.array("records").map(SyncHelperRecordCoding.record(from:)), more: try fields.bool("more"),
                            readProblems: try Self.strings(fields.array("readProblems"), what: "a reply's read problems"),
                            fromStart: try fields.bool("fromStart"))
        case "unavailable":
            self = .unavailable(reason: try fields.string("reason"))
        case "refused":
            self = .refused(limit: try SyncHelperRecordCoding.limit(from: fields.required("limit")),
                            keys: try Self.strings(fields.array("keys"), what: "a refusal's keys"))
        case "findings":
            self = .findings(try fields.array("findings").map(ServerCheckFinding.init(propertyList:)))
        case let other:
            throw SyncHelperFailure("a reply says \(other.prefix(40)), which the app does not know")
        }
    }

    private static func strings(_ items: [PropertyListValue], what: String) throws -> [String] {
        try SyncHelperRequest.strings(items, what: what)
    }
}

extension SyncHelperRequest {
    fileprivate static func strings(_ items: [PropertyListValue], what: String) throws -> [String] {
        try items.map { item in
            guard case .string(let text) = item else { throw SyncHelperFailure("\(what) are not all strings") }
            return text
        }
    }
}
