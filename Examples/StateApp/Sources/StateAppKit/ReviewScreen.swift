import KeyedArchive
import Restoration
import Screens
import Terminal

/// The line read back, with its length in words. Pushed in code, so a restoration class
/// rebuilds it at launch from the text it saved.
public final class ReviewScreen: Screen {
    public static let restorationClass = "Review"
    public let text: String

    public init(text: String) {
        self.text = text
        super.init(title: "Review", restorationIdentifier: "Review")
        restorationClassName = Self.restorationClass
    }

    public var wordCount: Int { text.split(whereSeparator: \.isWhitespace).count }

    public override func draw(in canvas: Canvas) {
        canvas.write(" You wrote:", x: 0, y: 1, style: .dim)
        canvas.write(" " + text, x: 0, y: 2, style: .bold)
        canvas.write(" \(wordCount) \(wordCount == 1 ? "word" : "words")", x: 0, y: 4)
    }

    public override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try coder.encode(text, forKey: "text")
    }

    /// Rebuilds the screen from its saved text; nothing is rebuilt without one.
    static func register(in registry: inout RestorationClassRegistry) {
        registry.register(restorationClass) { _, coder in
            guard let text = try coder.decodeObject(of: String.self, forKey: "text") else { return nil }
            return ReviewScreen(text: String(text.prefix(StateApp.maximumLineLength)))
        }
    }
}
