import FoundationEssentials

extension PropertyListValue {
    /// The first thing in this value that some property-list writer refuses, in words with the
    /// path to it ("the date at history[3].when is not a number (nan)"); nil when both writers
    /// accept the value. Dates must be finite and within years 0...9999 (the XML form's four
    /// digits; the binary writer keeps to the same so every file converts), UIDs must fit the
    /// XML form's signed 64-bit integer, and containers may nest `deepestNesting` levels.
    ///
    /// The walk keeps its own stack, so a value nested far deeper than the limit built in code
    /// cannot overflow the thread's stack.
    public var storageProblem: String? {
        var frames: [StorageWalkFrame] = []
        var current: PropertyListValue? = self
        while true {
            if let value = current {
                current = nil
                if let problem = Self.scalarProblem(value) {
                    return problem + " " + StorageWalkFrame.place(frames)
                }
                if let frame = StorageWalkFrame(value) {
                    guard frames.count < PropertyListLimits.deepestNesting else {
                        return "containers are nested deeper than \(PropertyListLimits.deepestNesting) levels "
                            + StorageWalkFrame.place(frames)
                    }
                    frames.append(frame)
                }
            }
            guard let last = frames.indices.last else { return nil }
            if frames[last].next < frames[last].children.count {
                current = frames[last].children[frames[last].next]
                frames[last].next += 1
            } else {
                frames.removeLast()
            }
        }
    }

    private static func scalarProblem(_ value: PropertyListValue) -> String? {
        switch value {
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            if seconds.isNaN { return "the date is not a number (nan)" }
            if seconds.isInfinite { return "the date is infinite (\(seconds < 0 ? "-inf" : "inf"))" }
            if ISO8601Date.format(date) == nil {
                return "the date \(seconds) seconds from 2001 lies outside years 0...9999"
            }
            return nil
        case .uid(let uid) where uid > UInt64(Int64.max):
            return "the UID \(uid) does not fit a signed 64-bit integer"
        default:
            return nil
        }
    }

    /// How messages show a date: its XML form when it has one, else what is wrong with it.
    /// Never traps, unlike Foundation's description of a NaN or far-off date.
    public static func describe(_ date: Date) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        if seconds.isNaN { return "invalid date (nan)" }
        if seconds.isInfinite { return "invalid date (\(seconds < 0 ? "-inf" : "inf"))" }
        return ISO8601Date.format(date) ?? "date outside years 0...9999 (\(seconds) seconds from 2001)"
    }
}

/// One container on the path of the storage walk, with the children still to visit. Labels
/// are made only for a message, so the walk itself allocates one array per container.
private struct StorageWalkFrame {
    let children: [PropertyListValue]
    /// Keys in code-point order for a dictionary, so the first problem found is always the same one; nil for an array.
    let keys: [String]?
    var next = 0

    init?(_ value: PropertyListValue) {
        switch value {
        case .array(let items): (children, keys) = (items, nil)
        case .dictionary(let entries):
            let sorted = sortedEntries(entries)
            (children, keys) = (sorted.map(\.value), sorted.map(\.key))
        default: return nil
        }
    }

    /// "at colors[2].name", or "at the top level", cut to a message's length.
    static func place(_ frames: [StorageWalkFrame]) -> String {
        guard !frames.isEmpty else { return "at the top level" }
        var path = ""
        for frame in frames {
            let index = frame.next - 1
            if let keys = frame.keys {
                let key = MessageText.excerpt(keys[index], limit: 40)
                path += path.isEmpty ? key : "." + key
            } else {
                path += "[\(index)]"
            }
        }
        return "at " + MessageText.excerpt(path)
    }
}

/// The writers' error for a date no property list may hold.
func unwritableDate(_ date: Date) -> PropertyListError {
    PropertyListError(.unrepresentableValue,
                      "\(PropertyListValue.describe(date)) cannot be written: dates must be finite and within years 0...9999",
                      position: 0, unit: .none)
}

/// The writers' error for nesting their readers would refuse.
func nestedTooDeep() -> PropertyListError {
    PropertyListError(.tooDeep, "containers are nested deeper than \(PropertyListLimits.deepestNesting) levels",
                      position: 0, unit: .none)
}
