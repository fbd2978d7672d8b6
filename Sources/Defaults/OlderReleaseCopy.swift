import PropertyList

/// A collection's copy in the defaults file, for the releases before the collections database,
/// which read it there and know nothing of the database: how an entry looks to them, and how
/// one they wrote is read back. Kept for at least one release after the move (CONTRIBUTING).
///
/// The copy holds the most recently saved entries within `maximumBytes` and `maximumEntries`,
/// so the file stays small whatever the collections grow to; an entry left out is one the older release does not
/// see, and one it writes from nothing is merged with this one's as any two instances are.
public struct OlderReleaseCopy: Sendable {
    /// The entry as the older release reads it; nil leaves it out of the copy.
    public var down: @Sendable (PropertyListValue) -> PropertyListValue?
    /// An entry the older release changed, in this release's shape; `changedAt` is when the
    /// file was written (it made no stamp of its own).
    public var up: @Sendable (_ value: PropertyListValue, _ changedAt: Double) -> PropertyListValue?

    public init(down: @escaping @Sendable (PropertyListValue) -> PropertyListValue?,
                up: @escaping @Sendable (_ value: PropertyListValue, _ changedAt: Double) -> PropertyListValue?) {
        self.down = down
        self.up = up
    }

    /// Entries the older release read and wrote in the shape this one does.
    public static let sameShape = OlderReleaseCopy(down: { $0 }, up: { value, _ in value })

    /// Bytes of one collection's copy at most (its entries as binary plists): the settings file
    /// is read at every launch, and the copy is for the recent past (a user going back to an
    /// older release a while), not the archive of every book read.
    public static let maximumBytes = 64 * 1_024
    /// Entries of one collection's copy at most, for the same reason.
    public static let maximumEntries = 200
}
