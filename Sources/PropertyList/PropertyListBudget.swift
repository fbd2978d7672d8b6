/// What a value costs once expanded: the values a walk meets, the bytes of strings (dictionary
/// keys included) and data it holds, and how many containers nest on its deepest path.
struct PropertyListFootprint {
    var elements = 0
    var stringBytes = 0
    var dataBytes = 0
    var height = 0

    /// One value on its own, not counting what a container holds (but counting a dictionary's keys).
    static func of(_ value: PropertyListValue) -> PropertyListFootprint {
        switch value {
        case .string(let text): PropertyListFootprint(elements: 1, stringBytes: text.utf8.count)
        case .data(let bytes): PropertyListFootprint(elements: 1, dataBytes: bytes.count)
        case .dictionary(let entries):
            PropertyListFootprint(elements: 1, stringBytes: entries.keys.reduce(0) { $0 + $1.utf8.count }, height: 1)
        case .array: PropertyListFootprint(elements: 1, height: 1)
        default: PropertyListFootprint(elements: 1)
        }
    }

    /// Adds a child's footprint; the caller checks the sum against the limits after each call,
    /// so neither side exceeds a limit and the sums cannot overflow.
    mutating func add(_ child: PropertyListFootprint) {
        elements += child.elements
        stringBytes += child.stringBytes
        dataBytes += child.dataBytes
        height = max(height, child.height + 1)
    }
}

/// Running totals against a `PropertyListLimits`; each charge returns the message naming the
/// limit it passed, or nil.
struct PropertyListBudget {
    let limits: PropertyListLimits
    private(set) var used = PropertyListFootprint()
    private(set) var objects = 0

    init(_ limits: PropertyListLimits) { self.limits = limits }

    mutating func chargeObject() -> String? {
        objects += 1
        return objects > limits.maxObjects ? "holds more than \(MessageText.grouped(limits.maxObjects)) distinct objects" : nil
    }

    mutating func charge(_ footprint: PropertyListFootprint) -> String? {
        used.elements += footprint.elements
        used.stringBytes += footprint.stringBytes
        used.dataBytes += footprint.dataBytes
        return limits.problem(with: used)
    }
}

extension PropertyListLimits {
    /// The first size limit `footprint` passes, in words; depth is checked where containers open.
    func problem(with footprint: PropertyListFootprint) -> String? {
        if footprint.elements > maxExpandedElements {
            return "expands to more than \(MessageText.grouped(maxExpandedElements)) objects, counting a shared object at every use"
        }
        if footprint.stringBytes > maxStringBytes {
            return "holds more than \(MessageText.grouped(maxStringBytes)) bytes of strings, counting a shared string at every use"
        }
        if footprint.dataBytes > maxDataBytes {
            return "holds more than \(MessageText.grouped(maxDataBytes)) bytes of data, counting shared data at every use"
        }
        return nil
    }
}
