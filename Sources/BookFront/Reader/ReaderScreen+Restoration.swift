import Defaults
import KeyedArchive
import Screens

extension ReaderScreen {
    /// The book's path and content hash and the reading position (a byte offset).
    func encodePlace(with coder: KeyedArchiver) throws {
        if let document {
            try coder.encode(document.path, forKey: SavedKey.bookPath)
            try coder.encode(document.id, forKey: SavedKey.bookID)
            try encode(ReadingPlace(offset: anchor, stamp: anchorStamp), with: coder)
        } else if let place = savedPlace {
            try coder.encode(place.path, forKey: SavedKey.bookPath)
            try coder.encode(place.bookID, forKey: SavedKey.bookID)
            try encode(place.place, with: coder)
        }
    }

    /// The offset and its stamp, so a relaunch can tell whether the archive or the defaults
    /// hold the newer place.
    private func encode(_ place: ReadingPlace, with coder: KeyedArchiver) throws {
        coder.encode(place.offset, forKey: SavedKey.offset)
        coder.encode(place.stamp.time, forKey: SavedKey.offsetModified)
        try coder.encode(place.stamp.device, forKey: SavedKey.offsetDevice)
    }

    /// Remembers the place; the book is opened when the reader first appears (so a launch on
    /// another tab does not read the book), and only at that offset if the file still hashes
    /// to the same id.
    func decodePlace(with coder: KeyedUnarchiver) throws {
        let path = try coder.decodeObject(of: String.self, forKey: SavedKey.bookPath)
        let id = try coder.decodeObject(of: String.self, forKey: SavedKey.bookID)
        let offset = max(0, try coder.decodeInteger(forKey: SavedKey.offset))
        // An archive from before places carried a stamp reads as older than any stamped place.
        let time = coder.containsValue(forKey: SavedKey.offsetModified) ? try coder.decodeDouble(forKey: SavedKey.offsetModified) : 0
        let device = try coder.decodeObject(of: String.self, forKey: SavedKey.offsetDevice) ?? ""
        let stamp = time.isFinite && time > 0 ? EditStamp(time: time, device: device) : .zero
        let place = SavedPlace(path: path, bookID: id, place: ReadingPlace(offset: offset, stamp: stamp))
        if didOpenInitialBook {
            if let path, let document, path == document.path, id == document.id {
                storage.positions.adopt(place.place, forBook: document.id)
                let standing = storage.positions.settle(shown: ReadingPlace(offset: anchor, stamp: anchorStamp), forBook: document.id)
                anchor = clamp(standing.offset)
                anchorStamp = standing.stamp
                setNeedsDisplay()
            }
        } else {
            savedPlace = place
        }
    }
}
