import Foundation
@testable import BookFront

/// A short book the team wrote for the tests (the real book is fetched, never committed):
/// CRLF line endings, hard-wrapped paragraphs, a contents list, four "CHAPTER N" headings
/// with names under them. Other BookFront tests may use it through `BookFixture`.
enum BookFixture {
    static let chapterTitles = [
        "CHAPTER 1: The Lamp in the Window",
        "CHAPTER 2: A Letter Without a Stamp",
        "CHAPTER 3: The Ferryman's Riddle",
        "CHAPTER 4: Home by the Long Road",
    ]

    /// The text with LF line breaks; `bytes` has the CRLF the file holds.
    static let text = """


                        THE LAMPLIGHTER'S NIECE

                            A tale for the tests


        CONTENTS

        CHAPTER 1. The Lamp in the Window
        CHAPTER 2. A Letter Without a Stamp
        CHAPTER 3. The Ferryman's Riddle
        CHAPTER 4. Home by the Long Road


                               CHAPTER 1

                         The Lamp in the Window


          Nell lived above the chandler's shop at the end of Tallow Lane,
        where her uncle kept the lamps of the whole parish burning from
        dusk until the milk carts came. Every evening she set a lamp of
        her own in the window, so that he could see it from the hill and
        know that supper was waiting.

          One night the lamp would not light. The wick was dry, the oil
        was fresh, and still the flame sank back into the glass as if it
        had somewhere better to be.  "Then it shall go there," said Nell,
        and she followed it down the stairs.


                               CHAPTER 2

                       A Letter Without a Stamp


          At the foot of the stairs lay a letter with no stamp and no
        name, only a drawing of a boat and a river that bent three times
        before it reached the sea. Nell turned it over twice and found a
        line written so small that she had to hold it against the moon.

          "Ask the ferryman," it said, "but never pay him first."


                               CHAPTER 3

                        The Ferryman's Riddle


          The ferryman was older than the river, or said he was, and he
        would not take anybody across who could not answer his riddle.
        "What burns without fire and is never used up?" he asked.

          Nell thought of her uncle on the hill and of the window at home,
        and said, "Waiting for someone," and the ferryman laughed until
        the boat rocked and pushed off from the bank.


                               CHAPTER 4

                        Home by the Long Road


          She came home by the long road, past the mill and the chapel and
        the seven bridges, and when she reached Tallow Lane the lamp in
        the window was already burning, and her uncle was asleep beside it
        with his boots still on.

                                THE END

        """

    static var bytes: [UInt8] { Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8) }

    /// A fresh folder under the system's temporary folder, removed by the caller when done.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bookfront-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `bytes` as `name` in a new temporary folder and returns the file's path.
    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let url = try temporaryFolder().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func write(_ string: String, name: String) throws -> String {
        try write(Array(string.utf8), name: name)
    }

    /// The fixture book, opened by the real loader.
    static func document() throws -> BookDocument {
        try BookLoader.load(path: write(bytes, name: "lamplighter.txt"))
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }
}
