import Defaults
import FoundationEssentials
import PropertyList

/// Where the reader is in a book: the byte offset of the page's top line, and when and where
/// the user last moved there.
public struct ReadingPlace: Equatable, Sendable {
    public var offset: Int
    public var stamp: EditStamp

    public init(offset: Int, stamp: EditStamp) {
        self.offset = offset
        self.stamp = stamp
    }

    static let offsetKey = SavedKey.offset

    /// `{offset, modified, device}`; a bare integer (saved before places carried a stamp)
    /// reads as a place older than any stamped one.
    public init?(propertyList value: PropertyListValue?) {
        switch value {
        case .dictionary(let fields)?:
            guard let offset = fields[Self.offsetKey].flatMap(DefaultsConversion.integer) else { return nil }
            self.init(offset: max(0, offset), stamp: EditStamp(fields: fields) ?? .zero)
        case let value?:
            guard let offset = DefaultsConversion.integer(value) else { return nil }
            self.init(offset: max(0, offset), stamp: .zero)
        case nil:
            return nil
        }
    }

    /// A place without a stamp (from a release that made none) keeps that release's shape, a
    /// bare offset, so it is never rewritten into one the release cannot read.
    public var propertyList: PropertyListValue {
        guard stamp != .zero else { return .integer(Int64(offset)) }
        var fields = stamp.fields()
        fields[Self.offsetKey] = .integer(Int64(offset))
        return .dictionary(fields)
    }

    /// The newer of two places; on a tie, `self`.
    public func newer(_ other: ReadingPlace?) -> ReadingPlace {
        guard let other, other.stamp > stamp else { return self }
        return other
    }
}

/// The owner of the reading positions: per book (keyed by content hash) in the defaults under
/// `WLReadingPositions`, saved entry by entry so instances reading different books keep each
/// other's places, and for one book the newer place (by its stamp) wins wherever two copies
/// meet — two instances, the restoration archive and the defaults at launch, the synced store.
public struct ReadingPositions {
    public static let storeKey = SavedKey.readingPositions
    public let store: PreferenceStore

    public init(store: PreferenceStore) {
        self.store = store
        Self.declareMerge(in: store)
    }

    /// Tells the store to save the places entry by entry, the newer winning.
    public static func declareMerge(in store: PreferenceStore) {
        store.mergesPerEntry(storeKey, rule: EntryMerge.newestWins { ReadingPlace(propertyList: $0)?.stamp }.keepingCopy(olderReleaseCopy))
    }

    /// Releases before the collections database read a place as a bare offset (the first of
    /// them knew nothing else). A place one of them changed is as new as the file it wrote,
    /// unless it carries a stamp of its own.
    static let olderReleaseCopy = OlderReleaseCopy(
        down: { value in ReadingPlace(propertyList: value).map { .integer(Int64($0.offset)) } },
        up: { value, changedAt in
            guard let place = ReadingPlace(propertyList: value) else { return nil }
            guard place.stamp == .zero else { return place.propertyList }
            return ReadingPlace(offset: place.offset, stamp: EditStamp(time: changedAt, device: "an older release")).propertyList
        })

    public func place(forBook id: String) -> ReadingPlace? {
        ReadingPlace(propertyList: store.object(forKey: Self.storeKey, entry: id))
    }

    public func position(forBook id: String) -> Int? { place(forBook: id)?.offset }

    /// The user moved to `offset`: saved with a stamp later than any place known for the book.
    @discardableResult
    public func move(to offset: Int, inBook id: String) -> ReadingPlace {
        let place = newPlace(at: offset, inBook: id)
        record(place, forBook: id)
        return place
    }

    /// A place the user moved to, stamped later than any known for the book, not yet saved: a
    /// screen that observes the store takes it as its own before saving it with `adopt`.
    public func newPlace(at offset: Int, inBook id: String) -> ReadingPlace {
        ReadingPlace(offset: offset, stamp: EditStamp.now(after: place(forBook: id)?.stamp))
    }

    /// Keeps `place` unless the saved one is newer; returns the place that stands. For a place
    /// that comes from elsewhere (the restoration archive, another device): it keeps its stamp,
    /// so it never passes for newer than it is.
    @discardableResult
    public func adopt(_ place: ReadingPlace, forBook id: String) -> ReadingPlace {
        let saved = self.place(forBook: id)
        let standing = place.newer(saved)
        if standing == place, saved != place { record(place, forBook: id) }
        return standing
    }

    /// The saved place changed while `shown` was on screen (another instance, another device):
    /// returns the place to show. A newer saved place is the one, and is written to disk at
    /// once, so a crash right after cannot bring back the older place; an older one is
    /// overruled by `shown`, saved again. Two places with one stamp (both from a release that
    /// stamped none) are no news: `shown` stays and nothing is written.
    public func settle(shown: ReadingPlace, forBook id: String) -> ReadingPlace {
        guard let saved = place(forBook: id) else {
            if shown.stamp != .zero { record(shown, forBook: id) }
            return shown
        }
        if saved.stamp == shown.stamp { return shown }
        guard saved.stamp > shown.stamp else {
            record(shown, forBook: id)
            return shown
        }
        try? store.saveNow()
        return saved
    }

    private func record(_ place: ReadingPlace, forBook id: String) {
        store.set(place.propertyList, forKey: Self.storeKey, entry: id)
    }

    /// Writes the positions to disk now (after following another device, so a crash right
    /// after does not bring back the older place).
    public func saveNow() throws { try store.saveNow() }
}
