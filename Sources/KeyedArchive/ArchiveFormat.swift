import PropertyList

/// The fixed names and numbers of NSKeyedArchiver's file format. Foundation's decoder matches
/// these byte for byte, so they live in one place rather than as literals at each use.
public enum ArchiveFormat {
    /// The top-level key naming the archiver that wrote the archive.
    public static let archiverKey = "$archiver"
    /// The archiver name Foundation expects under ``archiverKey``.
    public static let archiverName = "NSKeyedArchiver"
    /// The top-level key of the format version.
    public static let versionKey = "$version"
    /// The only format version NSKeyedArchiver has written, and the one written here.
    public static let version: Int64 = 100_000
    /// The top-level key of the dictionary of root keys, each a UID into `$objects`.
    public static let topKey = "$top"
    /// The top-level key of the array holding every stored value, referred to by UID.
    public static let objectsKey = "$objects"
    /// `$objects[0]` is always this string; UID 0 therefore means nil.
    public static let nullMarker = "$null"
    /// The key under `$top` that `archivedData(withRootObject:)` writes the root object to.
    public static let rootKey = "root"

    /// The key in an object's dictionary whose UID points to its class description.
    public static let classKey = "$class"
    /// The key in a class description naming the class.
    public static let classNameKey = "$classname"
    /// The key in a class description listing the class and its superclasses, most specific first.
    public static let classHierarchyKey = "$classes"

    /// The key of an NSArray's elements, and of an NSDictionary's values, as UIDs.
    public static let arrayObjectsKey = "NS.objects"
    /// The key of an NSDictionary's keys, as UIDs in the order of its values.
    public static let dictionaryKeysKey = "NS.keys"
    /// The key of an NSMutableString's text.
    public static let stringKey = "NS.string"
    /// The key of an NSMutableData's bytes.
    public static let dataKey = "NS.data"
    /// The key of an NSDate's seconds since 2001-01-01 00:00 UTC.
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
