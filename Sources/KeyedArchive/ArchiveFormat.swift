import PropertyList

/// The fixed names and numbers of NSKeyedArchiver's file format. Foundation's decoder matches
/// these byte for byte, so they live in one place rather than as literals at each use.
public enum ArchiveFormat {
    public static let archiverKey = "$archiver"
    public static let archiverName = "NSKeyedArchiver"
    public static let versionKey = "$version"
    public static let version: Int64 = 100_000
    public static let topKey = "$top"
    public static let objectsKey = "$objects"
    /// `$objects[0]` is always this string; UID 0 therefore means nil.
    public static let nullMarker = "$null"
    /// The key under `$top` that `archivedData(withRootObject:)` writes the root object to.
    public static let rootKey = "root"

    public static let classKey = "$class"
    public static let classNameKey = "$classname"
    public static let classHierarchyKey = "$classes"

    public static let arrayObjectsKey = "NS.objects"
    public static let dictionaryKeysKey = "NS.keys"
    public static let stringKey = "NS.string"
    public static let dataKey = "NS.data"
    public static let timeKey = "NS.time"

    /// Deepest chain of nested objects we encode, and decode unless a reader's limits say less:
    /// deep enough for any real screen stack, shallow enough that recursion stays far from the
    /// end of a thread's stack. How many values a decode may hand out is the reader's
    /// `PropertyListLimits.maxExpandedElements`.
    public static let maximumDepth = PropertyListLimits.deepestNesting
}

/// The Foundation classes whose archived form we read and write as plain Swift values.
/// Each value type is written under the first name; the others are what Foundation writes for
/// the mutable variants, which decode to the same value.
enum FoundationClass {
    static let string = ["NSString", "NSMutableString"]
    static let data = ["NSData", "NSMutableData"]
    static let date = ["NSDate"]
    static let array = ["NSArray", "NSMutableArray"]
    static let dictionary = ["NSDictionary", "NSMutableDictionary"]

    /// Every class name a plain value may carry; these need no entry in `allowedClasses`.
    static let all: Set<String> = Set(string + data + date + array + dictionary)
}
