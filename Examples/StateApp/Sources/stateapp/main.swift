import Defaults
import Foundation
import Screens
import StateAppKit
import Terminal

// Starts on a real terminal, resumes where the last run left off, and gives the terminal
// back before printing anything.
let environment = ProcessInfo.processInfo.environment
let folders = StateFolders(environment: environment)
let store = DefaultsStore(fileURL: folders.settingsFile)

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("stateapp: \(message)\n".utf8))
    exit(1)
}

let terminal: NcursesTerminal
do {
    terminal = try NcursesTerminal(environment: environment)
} catch {
    fail("\(error)")
}
let app = Application(terminal: terminal, root: StateApp.makeRoot(store: store))
let settings = SettingsKeeper(store: store)
app.addLifecycleObserver(settings)
app.addLifecycleObserver(StateKeeper(folder: folders.state, engine: StateApp.restorationEngine(store: store)))
do {
    let reason = try app.run()
    terminal.restore()
    if let error = settings.saveError { fail("could not save the settings: \(error)") }
    exit(reason == .quit ? 0 : 1)
} catch {
    terminal.restore()
    fail("\(error)")
}
