import Foundation
import PropertyList

/// How much of a value the synced store will walk. A decoded property list shares the objects
/// its file shares, so a few hundred bytes can stand for 2^40 nodes; anything that walks such a
/// value (comparing, hashing, writing it out, copying it into the defaults) never ends. The
/// walk here counts the value as it would be written out and stops at the first step over the
/// budget, so it costs at most the budget, whatever the value.
public struct ValueBudget: Sendable, Equatable {
    /// Values (containers, scalars, dictionary keys) in the value written out.
    public var maximumNodes: Int
    /// Bytes of strings, data and keys in the value written out.
    public var maximumBytes: Int

    public init(maximumNodes: Int, maximumBytes: Int) {
        self.maximumNodes = maximumNodes
        self.maximumBytes = maximumBytes
    }

    /// A synced value: the store holds 1 MB in all, so a value that writes out to several
    /// times that, or to more nodes than a megabyte of plist could list, is not one a device
    /// wrote through the store's API.
    public static let syncedValue = ValueBudget(maximumNodes: 262_144, maximumBytes: 4 << 20)

    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case tooManyNodes(limit: Int)
        case tooManyBytes(limit: Int)
        /// A value a defaults file cannot hold: a NaN or infinite date (XML cannot write it,
        /// so the defaults could not be saved again), or an archive's UID.
        case unstorable(String)

        public var description: String {
            switch self {
            case .tooManyNodes(let limit): return "it expands to more than \(limit) values"
            case .tooManyBytes(let limit): return "it expands to more than \(limit) bytes"
            case .unstorable(let what): return "it holds \(what), which no settings file can store"
            }
        }
    }

    /// The first problem met walking `value`, or nil when it is within the budget.
    public func problem(in value: PropertyListValue) -> Problem? {
        var nodes = 0
        var bytes = 0
        var pending: [PropertyListValue] = [value]
        while let next = pending.popLast() {
            nodes += 1
            if nodes > maximumNodes { return .tooManyNodes(limit: maximumNodes) }
            switch next {
            case .string(let text): bytes += text.utf8.count
            case .data(let data): bytes += data.count
            case .date(let date): if !date.timeIntervalSinceReferenceDate.isFinite { return .unstorable("a NaN or infinite date") }
            case .uid: return .unstorable("an archive UID")
            case .array(let elements):
                // Every queued value is counted once popped, so counting it now keeps the queue
                // itself within the budget.
                if elements.count > maximumNodes - nodes - pending.count { return .tooManyNodes(limit: maximumNodes) }
                pending.append(contentsOf: elements)
            case .dictionary(let entries):
                if 2 * entries.count > maximumNodes - nodes - pending.count { return .tooManyNodes(limit: maximumNodes) }
                for (key, element) in entries {
                    nodes += 1
                    bytes += key.utf8.count
                    pending.append(element)
                }
            case .integer, .real, .boolean: break
            }
            if bytes > maximumBytes { return .tooManyBytes(limit: maximumBytes) }
        }
        return nil
    }
}
