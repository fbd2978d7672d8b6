/// Why a tree is being preserved: for this machine's next launch, or as the activity another
/// machine may continue. A screen holding text the user has not saved (a draft, a half-typed
/// question) asks ``includesDrafts`` and leaves that text out of an activity when the user has
/// not let drafts travel.
public enum RestorationPurpose: Sendable, Equatable {
    /// The archive this machine restores at its next launch: everything.
    case localSave
    /// An activity another machine may continue; drafts only when the user turned them on.
    case handoff(includesDrafts: Bool)

    /// The purpose of the preservation under way on this thread.
    @TaskLocal public static var current: RestorationPurpose = .localSave

    /// Whether text the user typed and has not saved goes into the archive.
    public var includesDrafts: Bool {
        switch self {
        case .localSave: return true
        case .handoff(let includesDrafts): return includesDrafts
        }
    }
}
