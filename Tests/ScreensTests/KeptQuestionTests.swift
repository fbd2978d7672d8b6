import Foundation
import KeyedArchive
import Restoration
import Screens
import ScreensTesting
import Terminal
import Testing

/// A screen that asks for a name, and asks again after a relaunch with what was typed.
private final class AskingScreen: Screen {
    var kept = KeptQuestion()
    var answers: [String?] = []
    var secure = false

    init() { super.init(title: "Asking", restorationIdentifier: "Asking") }

    func ask(_ typed: TextFieldState? = nil) {
        let prompt = Prompt(title: "Name", message: "Who?") { [unowned self] in self.answers.append($0) }
        prompt.isSecure = secure
        if let typed { prompt.field = typed }
        kept.asking(prompt, kind: "Name")
        present(prompt)
    }

    override var keyBindings: [KeyBinding] { [KeyBinding(.character("a"), help: "Ask") { [unowned self] in self.ask() }] }
    override func viewDidAppear() { if let question = kept.takeQuestionToAskAgain() { ask(question.field) } }
    override func encodeRestorableState(with coder: KeyedArchiver) throws { try kept.encode(with: coder) }
    override func decodeRestorableState(with coder: KeyedUnarchiver) throws { try kept.decode(with: coder) }
}

@Suite("A kept question through a relaunch")
struct KeptQuestionTests {
    private func relaunch(_ first: AskingScreen) throws -> (AskingScreen, Pilot) {
        let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 60, terminalRows: 14)
        let data = try RestorationEngine(duplicatePolicy: .fail).preserve(root: first, header: header).data
        let second = AskingScreen()
        _ = try RestorationEngine().restore(from: data, root: second)
        return (second, Pilot(second, columns: 60, rows: 14))
    }

    @Test func aQuestionOnShowIsAskedAgainWithItsTextAndCursorAndAnswersTheNewScreen() throws {
        let first = AskingScreen()
        let pilot = Pilot(first, columns: 60, rows: 14)
        try pilot.press(.character("a"))
        try pilot.type("Alice")
        try pilot.press(.left)
        let (second, relaunched) = try relaunch(first)
        let prompt = try #require(relaunched.app.modals.last as? Prompt)
        #expect(prompt.field == TextFieldState("Alice", cursor: 4))
        relaunched.expectScreen(contains: "Alice")
        try relaunched.press(.end)
        try relaunched.type("!")
        try relaunched.press(.enter)
        #expect(second.answers == ["Alice!"])
        #expect(first.answers.isEmpty)
    }

    @Test func anAnsweredOrSecureQuestionIsNotAskedAgain() throws {
        let first = AskingScreen()
        let pilot = Pilot(first, columns: 60, rows: 14)
        try pilot.press(.character("a"))
        try pilot.type("Alice")
        try pilot.press(.enter)
        #expect(try relaunch(first).1.app.modals.isEmpty)

        first.secure = true
        try pilot.press(.character("a"))
        try pilot.type("secret")
        #expect(try relaunch(first).1.app.modals.isEmpty, "a password is never saved")
    }
}
