/// Why the zip reader refused an archive or one of its entries. The archive's own words are
/// never trusted, so most of these describe a lie found out: a count, an offset or a size that
/// does not fit the file, or data that does not match its checksum.
enum ZipError: Error, Equatable {
    /// No end-of-central-directory record in the last 64 KB: not a zip archive at all.
    case notAZip
    /// The archive's structure (its directory, a header, an offset) does not hold together.
    case malformed(String)
    /// The directory lists more entries than the caller allows.
    case tooManyEntries
    /// Entry refusals: encrypted with zip's own encryption, or compressed with a method other
    /// than stored (0) or deflate (8).
    case encrypted
    case unsupportedMethod(UInt16)
    /// The entry inflated past the caller's limit or past the size the directory gave it.
    case tooBig
    /// The entry's data is cut short, inflates to garbage or fails its CRC-32.
    case damaged(String)
    /// The file could not be read (an I/O error, errno).
    case unreadable(Int32)
}
