import PropertyList

/// How a dictionary-valued key that several processes edit entry by entry is saved: each entry
/// this process changed is applied by itself to the file's current dictionary, under the file
/// lock, so entries other processes changed meanwhile are kept. When another process changed
/// the same entry since this one read it, `resolve` decides (`base` is the entry as this
/// process last knew it, `mine` this process's value, `theirs` the file's; nil is no entry).
public struct EntryMerge: Sendable {
    public let resolve: @Sendable (_ base: PropertyListValue?, _ mine: PropertyListValue?, _ theirs: PropertyListValue?) -> PropertyListValue?

    /// The copy kept in the defaults file for releases before the collections database; nil
    /// keeps none.
    public var olderReleaseCopy: OlderReleaseCopy?

    public init(olderReleaseCopy: OlderReleaseCopy? = nil,
                resolve: @escaping @Sendable (_ base: PropertyListValue?, _ mine: PropertyListValue?, _ theirs: PropertyListValue?) -> PropertyListValue?) {
        self.olderReleaseCopy = olderReleaseCopy
        self.resolve = resolve
    }

    /// The same merge, with a copy for older releases kept in the defaults file.
    public func keepingCopy(_ copy: OlderReleaseCopy) -> EntryMerge {
        var merge = self
        merge.olderReleaseCopy = copy
        return merge
    }

    /// This process's value replaces the entry: right for values where the last change is the
    /// one the user wants and nothing else is lost.
    public static let lastWriterWins = EntryMerge { _, mine, _ in mine }

    /// The value carrying the newer `EditStamp` (read by `stamp`) wins; with no stamp on either
    /// side, this process's.
    public static func newestWins(stamp: @escaping @Sendable (PropertyListValue) -> EditStamp?) -> EntryMerge {
        EntryMerge { _, mine, theirs in
            guard let mine else { return theirs }
            guard let theirs else { return mine }
            let mineStamp = stamp(mine) ?? .zero, theirStamp = stamp(theirs) ?? .zero
            return theirStamp > mineStamp ? theirs : mine
        }
    }

    /// Settles one entry: unchanged elsewhere (or changed to the same value) takes this
    /// process's value as it is; otherwise `resolve` decides.
    func settle(base: PropertyListValue?, mine: PropertyListValue?, theirs: PropertyListValue?) -> PropertyListValue? {
        if theirs == base || theirs == mine { return mine }
        return resolve(base, mine, theirs)
    }
}
