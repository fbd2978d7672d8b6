/// How much one property list may hold, checked while it is read so that no file can make the
/// reader, or anything that later walks the value, run out of time, memory or stack.
///
/// Sizes are counted *expanded*: a binary property list may reference one object from many
/// places, and the reader shares it (decoding it once), but every consumer walks the value as a
/// tree and meets the shared object at every use. So `maxExpandedElements`, `maxStringBytes` and
/// `maxDataBytes` count a shared object each time it is referenced, which is what bounds the work
/// of whoever uses the result; `maxObjects` counts distinct objects, which bounds the reader's own
/// work and memory.
public struct PropertyListLimits: Sendable, Equatable {
    /// Containers nested more deeply than this are refused.
    public var maxDepth: Int
    /// Most distinct values decoded: objects of a binary file's object table, elements of an XML file.
    public var maxObjects: Int
    /// Most values in the tree a consumer walks, counting a shared object at every reference.
    public var maxExpandedElements: Int
    /// Most UTF-8 bytes of strings and dictionary keys in the expanded tree.
    public var maxStringBytes: Int
    /// Most bytes of data values in the expanded tree.
    public var maxDataBytes: Int

    /// Limits of your own; start from a preset such as ``userFile`` when only one bound differs.
    /// Each parameter sets the property of the same name.
    public init(maxDepth: Int, maxObjects: Int, maxExpandedElements: Int, maxStringBytes: Int, maxDataBytes: Int) {
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
        self.maxExpandedElements = maxExpandedElements
        self.maxStringBytes = maxStringBytes
        self.maxDataBytes = maxDataBytes
    }

    /// The deepest nesting any reader preset allows and the most both writers produce, so that
    /// whatever we write we can read back.
    public static let deepestNesting = 512

    /// A file a user hands to `wonderland plist`: big real files (a large app's preferences, an
    /// archive of many objects) read, while no file expands past a million values.
    public static let userFile = PropertyListLimits(
        maxDepth: deepestNesting, maxObjects: 1_000_000, maxExpandedElements: 1_000_000,
        maxStringBytes: 64 << 20, maxDataBytes: 256 << 20)

    /// A defaults domain, read at every launch and after every change: four times the 4 MiB at
    /// which Apple's preferences call a domain too big, so any domain Apple's stack keeps reads.
    public static let defaults = PropertyListLimits(
        maxDepth: deepestNesting, maxObjects: 250_000, maxExpandedElements: 250_000,
        maxStringBytes: 16 << 20, maxDataBytes: 16 << 20)

    /// The app's own restoration archive, read at every launch: the million values the keyed
    /// unarchiver has always allowed, far beyond any real screen tree.
    public static let restorationState = PropertyListLimits(
        maxDepth: deepestNesting, maxObjects: 500_000, maxExpandedElements: 1 << 20,
        maxStringBytes: 16 << 20, maxDataBytes: 16 << 20)

    /// One value from a synced peer, whose payload the store caps at 1 MiB as Apple's ubiquitous
    /// key-value store does. Every reference takes at least a byte, so any value within the cap
    /// that shares no container expands to at most 1 Mi values; more means shared containers.
    public static let changeFile = PropertyListLimits(
        maxDepth: deepestNesting, maxObjects: 1 << 20, maxExpandedElements: 1 << 20,
        maxStringBytes: 4 << 20, maxDataBytes: 4 << 20)
}

extension PropertyListLimits {
    /// Throws the error a reader would give if `value` were read back under these limits, so a
    /// writer can refuse a value its own readers would later refuse. The walk stops as soon as a
    /// limit is passed, so it is bounded by the limits however much the value shares.
    public func check(_ value: PropertyListValue) throws {
        var budget = PropertyListBudget(self)
        var stack: [(value: PropertyListValue, depth: Int)] = [(value, 0)]
        while let (next, depth) = stack.popLast() {
            try budget.charge(.of(next)).map { throw Self.failure(.limitExceeded, $0) }
            try budget.chargeObject().map { throw Self.failure(.limitExceeded, $0) }
            switch next {
            case .array(let items):
                guard depth < maxDepth else { throw Self.failure(.tooDeep, depthMessage) }
                for item in items { stack.append((item, depth + 1)) }
            case .dictionary(let entries):
                guard depth < maxDepth else { throw Self.failure(.tooDeep, depthMessage) }
                for (_, item) in entries {
                    // Keys are objects of their own in both formats (XML elements, binary strings).
                    try budget.chargeObject().map { throw Self.failure(.limitExceeded, $0) }
                    stack.append((item, depth + 1))
                }
            case .uid:
                // XML writes a UID as <dict><key>CF$UID</key><integer>, and its reader counts the
                // dictionary (charged above as the UID), the key and the integer.
                guard depth < maxDepth else { throw Self.failure(.tooDeep, depthMessage) }
                try budget.charge(PropertyListFootprint(elements: 1, stringBytes: 6)).map { throw Self.failure(.limitExceeded, $0) }
                for _ in 0..<2 { try budget.chargeObject().map { throw Self.failure(.limitExceeded, $0) } }
            default:
                break
            }
        }
    }

    private static func failure(_ kind: PropertyListError.Kind, _ message: String) -> PropertyListError {
        PropertyListError(kind, message, position: 0, unit: .none)
    }

    var depthMessage: String { "containers are nested deeper than \(MessageText.grouped(maxDepth)) levels" }
}
