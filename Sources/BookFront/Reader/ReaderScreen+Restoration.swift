import KeyedArchive
import Screens

extension ReaderScreen {
    /// The book's path and content hash and the reading position (a byte offset).
    func encodePlace(with coder: KeyedArchiver) throws {
        if let document {
            try coder.encode(document.path, forKey: "bookPath")
            try coder.encode(document.id, forKey: "bookID")
            coder.encode(anchor, forKey: "offset")
        } else if let place = savedPlace {
            try coder.encode(place.path, forKey: "bookPath")
            try coder.encode(place.bookID, forKey: "bookID")
            coder.encode(place.offset, forKey: "offset")
        }
    }

    /// Remembers the place; the book is opened when the reader first appears (so a launch on
    /// another tab does not read the book), and only at that offset if the file still hashes
    /// to the same id.
    func decodePlace(with coder: KeyedUnarchiver) throws {
        let path = try coder.decodeObject(of: String.self, forKey: "bookPath")
        let id = try coder.decodeObject(of: String.self, forKey: "bookID")
        let offset = max(0, try coder.decodeInteger(forKey: "offset"))
        let place = SavedPlace(path: path, bookID: id, offset: offset)
        if didOpenInitialBook {
            if let path, path == document?.path, id == document?.id { move(to: offset) }
        } else {
            savedPlace = place
        }
    }
}
