import Defaults
import PropertyList

/// How a rule's values look when a release that made no edit stamps wrote them, so a fleet
/// with such a machine in it syncs as one: its values are taken in stamped with the store's
/// record of them (the time that record was written), and where the store holds its form, this
/// machine writes that form too, so the older release can read what it is sent.
public struct UnstampedForm: Sendable {
    /// Whether a value in the store is in the older release's form.
    public var holds: @Sendable (PropertyListValue) -> Bool
    /// A value of this release in the older form (the stamp left out).
    public var withoutStamp: @Sendable (PropertyListValue) -> PropertyListValue
    /// A value in the older form, stamped; nil when it cannot be read.
    public var stamped: @Sendable (PropertyListValue, EditStamp) -> PropertyListValue?

    public init(holds: @escaping @Sendable (PropertyListValue) -> Bool,
                withoutStamp: @escaping @Sendable (PropertyListValue) -> PropertyListValue,
                stamped: @escaping @Sendable (PropertyListValue, EditStamp) -> PropertyListValue?) {
        self.holds = holds
        self.withoutStamp = withoutStamp
        self.stamped = stamped
    }

    /// A dictionary value that carries its stamp in two of its fields (the pin): the older
    /// form is the dictionary without them.
    public static let dictionaryFields = UnstampedForm(
        holds: { value in
            guard case .dictionary(let fields) = value else { return false }
            return EditStamp(fields: fields) == nil
        },
        withoutStamp: { value in
            guard case .dictionary(var fields) = value else { return value }
            fields[EditStamp.timeKey] = nil
            fields[EditStamp.deviceKey] = nil
            return .dictionary(fields)
        },
        stamped: { value, stamp in
            guard case .dictionary(let fields) = value else { return nil }
            return .dictionary(fields.merging(stamp.fields()) { _, new in new })
        })
}
