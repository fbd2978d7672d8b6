import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads change records out of the bytes of a change file, from where the last read stopped.
///
/// Three kinds of trouble, told apart by the frame:
/// - a record not all there yet (its length runs past the end: a sync tool still copying, a
///   writer still writing or killed mid-write): reading stops before it and tries again later;
/// - damage (a checksum that does not match, a length no record can have, a body that does not
///   parse): the damaged bytes are skipped by searching forward for the next position where a
///   whole, valid record starts, so one bad byte costs at most the records it touches;
/// - a record that looks half written but is followed by a valid one is damage too.
/// A record is only ever returned when its checksum matches, so damage never becomes a value.
/// A file whose header names a newer format is not read at all (see `Result.newerFormat`).
///
/// Searching for the next record after damage looks at every byte offset, and each offset whose
/// frame looks plausible costs its body's length to check; the work is capped per scan
/// (`resyncBudget`), so crafted bytes cannot make a scan quadratic. Past the cap the rest of the
/// damage is skipped without looking.
struct ChangeFileScanner {
    struct Result {
        var records: [ChangeRecord] = []
        /// The file offset to read from next time (everything before it is consumed).
        var consumedTo: Int
        /// Regions of damaged bytes skipped.
        var damagedRegions = 0
        /// The format version in the header when it is newer than this build reads: nothing
        /// was read, and the file must be left as it is.
        var newerFormat: UInt8?
    }

    /// Named in each record's origin ("<file> at byte <offset>").
    var fileName: String?
    /// Bytes of record bodies a scan may check while searching past damage.
    var resyncBudget = 32 << 20
    private var resyncSpent = 0

    /// Records come in runs from one device (one file each): the last device's bytes are kept
    /// so most records skip validating and allocating their device again.
    private var lastDevice: (bytes: [UInt8], device: DeviceIdentifier)?

    /// `bytes` are the file's contents from file offset `start` on: to its current end, or,
    /// with `moreFollows`, a piece of it; then a record cut off by the piece's end is left for
    /// the next piece instead of being judged.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, fileOffset start: Int, moreFollows: Bool = false) -> Result {
        var result = Result(consumedTo: start)
        resyncSpent = 0
        var position = 0
        let header = ChangeFileFormat.header
        if start == 0, let version = ChangeFileFormat.newerVersion(in: bytes) {
            result.newerFormat = version
            return result
        }
        if start == 0 {
            let available = min(bytes.count, header.count)
            if !zip(bytes.prefix(available), header).allSatisfy({ $0 == $1 }) {
                // Not our header: damage, unless nothing follows that parses either.
                result.damagedRegions += 1
                position = skipDamage(bytes, after: 0, fileOffset: start)
            } else if bytes.count < header.count {
                return result  // the header itself is still arriving
            } else {
                position = header.count
            }
        }
        while position < bytes.count {
            switch examine(bytes, at: position, fileOffset: start) {
            case .record(let record, let next):
                result.records.append(record)
                position = next
            case .incomplete where moreFollows:
                result.consumedTo = start + position
                return result
            case .incomplete:
                // Half written, or damage that claims a length past the end: a valid record
                // further on settles it.
                if let next = nextValidRecord(bytes, after: position, fileOffset: start) {
                    result.damagedRegions += 1
                    position = next
                } else {
                    result.consumedTo = start + position
                    return result
                }
            case .damaged:
                result.damagedRegions += 1
                position = skipDamage(bytes, after: position, fileOffset: start)
            }
        }
        result.consumedTo = start + position
        return result
    }

    /// After damage at `position`: the next valid record, or, when none follows, the first place
    /// a record could still be arriving (reading resumes there).
    private mutating func skipDamage(_ bytes: UnsafeRawBufferPointer, after position: Int, fileOffset start: Int) -> Int {
        if let next = nextValidRecord(bytes, after: position, fileOffset: start) { return next }
        if resyncSpent >= resyncBudget { return bytes.count }
        var candidate = position + 1
        while candidate < bytes.count {
            if bytes.count - candidate < ChangeFileFormat.frameSize { return candidate }
            guard let plausible = nextPlausibleFrame(bytes, from: candidate, before: bytes.count - ChangeFileFormat.frameSize + 1) else {
                candidate = bytes.count - ChangeFileFormat.frameSize + 1
                continue
            }
            candidate = plausible
            if case .incomplete = examine(bytes, at: candidate, fileOffset: start, resyncing: true) { return candidate }
            candidate += 1
        }
        return bytes.count
    }

    private mutating func nextValidRecord(_ bytes: UnsafeRawBufferPointer, after position: Int, fileOffset start: Int) -> Int? {
        let end = bytes.count - ChangeFileFormat.frameSize - ChangeFileFormat.minimumBodySize + 1
        var candidate = position + 1
        while candidate < end, resyncSpent < resyncBudget, let plausible = nextPlausibleFrame(bytes, from: candidate, before: end) {
            candidate = plausible + 1
            // A body running past what is here cannot be a whole record: no need to look closer.
            let length = Int(bytes[plausible + 2]) << 8 | Int(bytes[plausible + 3]) | Int(bytes[plausible + 1]) << 16
            guard plausible + ChangeFileFormat.frameSize + length <= bytes.count else { continue }
            if case .record = examine(bytes, at: plausible, fileOffset: start, resyncing: true) { return plausible }
        }
        return nil
    }

    /// The first offset in `start ..< end` where a frame's length could be valid: no body is
    /// over 4 MB, so its first byte is 0 and its second at most 0x40. Found with memchr, so
    /// searching through damage costs a byte comparison per offset, not a call of `examine`.
    private func nextPlausibleFrame(_ bytes: UnsafeRawBufferPointer, from start: Int, before end: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let highest = UInt8(truncatingIfNeeded: ChangeFileFormat.maximumBodySize >> 16)
        var candidate = start
        while candidate < end {
            guard let zero = memchr(base + candidate, 0, end - candidate) else { return nil }
            candidate = base.distance(to: UnsafeRawPointer(zero))
            if bytes[candidate + 1] <= highest { return candidate }
            candidate += 1
        }
        return nil
    }

    private enum Finding {
        case record(ChangeRecord, next: Int)
        case incomplete
        case damaged
    }

    private mutating func examine(_ bytes: UnsafeRawBufferPointer, at position: Int, fileOffset start: Int,
                                  resyncing: Bool = false) -> Finding {
        let frame = ChangeFileFormat.frameSize
        guard bytes.count - position >= frame else { return .incomplete }
        let length = Int(readInteger(bytes, position, as: UInt32.self))
        guard length >= ChangeFileFormat.minimumBodySize, length <= ChangeFileFormat.maximumBodySize else { return .damaged }
        let bodyStart = position + frame
        if bodyStart + length > bytes.count {
            // Judge what has arrived: a key length that cannot fit is damage, not a slow copy.
            if bytes.count - bodyStart >= 2, Int(readInteger(bytes, bodyStart, as: UInt16.self)) + ChangeFileFormat.minimumBodySize > length {
                return .damaged
            }
            return .incomplete
        }
        if resyncing {
            guard resyncSpent + length <= resyncBudget else { return .damaged }
            resyncSpent += length
        }
        let body = UnsafeRawBufferPointer(rebasing: bytes[bodyStart ..< bodyStart + length])
        guard let record = decodeBody(body, origin: start + position), CRC32.checksum(body) == readInteger(bytes, position + 4, as: UInt32.self) else {
            return .damaged
        }
        return .record(record, next: bodyStart + length)
    }

    /// Structure first (cheap), so the checksum is only computed for bodies that parse.
    private mutating func decodeBody(_ body: UnsafeRawBufferPointer, origin offset: Int) -> ChangeRecord? {
        var cursor = 0
        let keyLength = Int(readInteger(body, cursor, as: UInt16.self))
        cursor += 2
        guard cursor + keyLength + 8 + 1 <= body.count else { return nil }
        let keyBytes = UnsafeRawBufferPointer(rebasing: body[cursor ..< cursor + keyLength])
        cursor += keyLength
        let clock = readInteger(body, cursor, as: UInt64.self)
        cursor += 8
        let deviceLength = Int(body[cursor])
        cursor += 1
        guard deviceLength >= 1, cursor + deviceLength + 1 <= body.count else { return nil }
        let deviceBytes = UnsafeRawBufferPointer(rebasing: body[cursor ..< cursor + deviceLength])
        cursor += deviceLength
        let flags = body[cursor]
        cursor += 1
        guard flags & ~ChangeFileFormat.removalFlag == 0 else { return nil }
        let isRemoval = flags == ChangeFileFormat.removalFlag
        guard !isRemoval || cursor == body.count else { return nil }
        guard let key = String(validating: keyBytes, as: UTF8.self) else { return nil }
        let device: DeviceIdentifier
        if let lastDevice, deviceBytes.elementsEqual(lastDevice.bytes) {
            device = lastDevice.device
        } else {
            guard let string = String(validating: deviceBytes, as: UTF8.self), let parsed = DeviceIdentifier(string) else { return nil }
            lastDevice = (Array(deviceBytes), parsed)
            device = parsed
        }
        let payload = isRemoval ? nil : Data(UnsafeRawBufferPointer(rebasing: body[cursor...]))
        return ChangeRecord(key: key, payload: payload, stamp: ChangeStamp(clock: HybridTimestamp(rawValue: clock), device: device),
                            origin: fileName.map { "\($0) at byte \(offset)" })
    }

    private func readInteger<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, _ offset: Int, as type: T.Type) -> T {
        T(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
