import Screens
import Terminal

/// Keys in, one synchronous step at a time: what every headless test of the app does.
protocol DrivesApplication {
    var terminal: HeadlessTerminal { get }
    var app: Application { get }
}

extension DrivesApplication {
    func press(_ keys: Key...) throws {
        for key in keys { terminal.enqueue(.key(key)) }
        try app.processPendingEvents()
    }

    func type(_ text: String) throws {
        for character in text { terminal.enqueue(.key(.character(character))) }
        try app.processPendingEvents()
    }

    func send(_ event: Event) throws {
        terminal.enqueue(event)
        try app.processPendingEvents()
    }

    var lines: [String] { terminal.lines }
}
