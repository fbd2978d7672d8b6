/// What a reader accepted but a careful writer would not have written, such as a dictionary key
/// given twice. Only the first `keptLimit` are kept, so a hostile file cannot grow the list
/// without bound; `count` still says how many there were.
public struct PropertyListWarnings: Sendable, Equatable {
    /// The most warnings ``kept``; later ones are only counted.
    public static let keptLimit = 100

    /// The first warnings, in the order they were met, each with its place in the input.
    public private(set) var kept: [PropertyListError] = []
    /// How many warnings there were in all, kept or not.
    public private(set) var count = 0

    /// No warnings yet: pass one to a reader's `read(_:limits:warnings:)`, then look at it.
    public init() {}

    mutating func note(_ warning: PropertyListError) {
        count += 1
        if kept.count < Self.keptLimit { kept.append(warning) }
    }

    mutating func merge(_ other: PropertyListWarnings) {
        for warning in other.kept { note(warning) }
        count += other.count - other.kept.count
    }
}
