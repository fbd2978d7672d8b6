import KeyedArchive

/// Saves a tree of ``Restorable`` objects into an NSKeyedArchiver-format archive and rebuilds
/// it: each preserved object becomes a node under its identifier, holding the keys it encoded
/// and its preserved children.
///
/// Save with ``preserve(root:modals:header:delegate:)`` and write ``Preserved/data`` through
/// ``RestorationFiles``; at the next launch, read it back and call
/// ``restore(from:root:presentModal:delegate:)`` on the freshly made tree before its first
/// frame. Register a factory in ``registry`` for every object the app makes in code rather
/// than at start-up.
public struct RestorationEngine {
    /// Bumped when the archive's layout changes incompatibly; an archive with another version
    /// is not restored.
    public static let formatVersion = 1

    /// What preservation does with two siblings under one identifier.
    public enum DuplicatePolicy: Sendable {
        /// Throw: tests and debug builds, where a duplicate is a programming error.
        case fail
        /// Keep the first, log the rest: a release build should still save what it can.
        case skipAndLog
    }

    /// The factories that rebuild objects the app does not make at launch.
    public var registry: RestorationClassRegistry
    /// What preservation does with two siblings under one identifier.
    public var duplicatePolicy: DuplicatePolicy
    /// Archivable classes screens store in their state, beyond plain values.
    public var allowedClasses: [any KeyedArchivable.Type]
    /// Bounds for hostile archives: children restored per object, and nesting.
    public var maximumChildren = 64
    /// Deepest nesting of saved objects restored; deeper ones are skipped and logged.
    public var maximumDepth = 32

    /// An engine with the given restoration classes. Objects found among the app's own
    /// (by identifier path) need no registration.
    public init(registry: RestorationClassRegistry = RestorationClassRegistry(),
                duplicatePolicy: DuplicatePolicy = .defaultForBuild,
                allowedClasses: [any KeyedArchivable.Type] = []) {
        self.registry = registry
        self.duplicatePolicy = duplicatePolicy
        self.allowedClasses = allowedClasses
    }

    static func path(_ components: [String]) -> String { components.joined(separator: "/") }
}

extension RestorationEngine.DuplicatePolicy {
    /// `.fail` in debug builds, `.skipAndLog` in release builds.
    public static var defaultForBuild: Self {
        #if DEBUG
        return .fail
        #else
        return .skipAndLog
        #endif
    }
}

/// Why an archive could not be restored at all (a skipped object is logged, not thrown).
public struct RestorationError: Error, CustomStringConvertible, Equatable {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// Two siblings were saved under this identifier path (under ``RestorationEngine/DuplicatePolicy/fail``).
        case duplicateIdentifier(path: String)
        /// The data is not a keyed archive, or its tree does not decode; the text says why.
        case notAnArchive(String)
        /// A keyed archive, but not one this engine wrote: it has no format version.
        case notARestorationArchive
        /// The archive's format version is not the one this build reads; see
        /// ``RestorationError/isNewerFormat``.
        case incompatibleFormat(found: Int, supported: Int)
        /// The delegate's ``RestorationDelegate/shouldRestoreApplicationState(_:)`` said no.
        case declinedByApp
    }
    /// What went wrong.
    public let kind: Kind
    /// An error of `kind`.
    public init(_ kind: Kind) { self.kind = kind }

    /// True when the file itself is damaged (moved aside), rather than merely not wanted.
    public var isCorruption: Bool {
        switch kind {
        case .notAnArchive, .notARestorationArchive: return true
        default: return false
        }
    }

    /// True when a newer version of the app wrote the archive: it is kept (moved aside, never
    /// overwritten), so going back to that version does not lose the place it saved.
    public var isNewerFormat: Bool {
        if case .incompatibleFormat(let found, let supported) = kind { return found > supported }
        return false
    }

    /// The reason as a sentence for a log or a message, such as "the archive's format version is 2;
    /// this build reads version 1".
    public var description: String {
        switch kind {
        case .duplicateIdentifier(let path): return "two siblings share the identifier path \(path)"
        case .notAnArchive(let reason): return "the archive does not decode: \(reason)"
        case .notARestorationArchive: return "the archive has no restoration format version"
        case .incompatibleFormat(let found, let supported):
            return "the archive's format version is \(found); this build reads version \(supported)"
        case .declinedByApp: return "the app declined to restore this archive"
        }
    }
}
