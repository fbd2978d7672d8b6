/// Tells whether the book the app has open is a copy of the default book, for a character
/// page whose own copy is missing. The page asks on every frame while it says the book is
/// missing, so each file is read and its digest checked once.
public final class DefaultBookCopy {
    private let candidate: () -> String?
    private let sha256: String
    private var checked: [String: Bool] = [:]

    /// `candidate` gives the path of the book open now (or about to be reopened), if any;
    /// `sha256` is the default book's digest (tests give their own book's).
    public init(sha256: String = BookLibrary.defaultBookSHA256, candidate: @escaping () -> String?) {
        self.sha256 = sha256
        self.candidate = candidate
    }

    /// The candidate's path when it is the default book byte for byte; nil otherwise.
    public func find() -> String? {
        guard let path = candidate() else { return nil }
        if let known = checked[path] { return known ? path : nil }
        let isDefault = BookLibrary.isDefaultBook(atPath: path, sha256: sha256)
        checked[path] = isDefault
        return isDefault ? path : nil
    }
}
