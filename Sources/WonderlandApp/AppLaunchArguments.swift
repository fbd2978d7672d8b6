import Platform

/// The command lines that only start the app (`wonderland`, `--fresh`, `--location LAT,LON`,
/// `--book PATH`, `--exit-after-first-frame`), recognised without ArgumentParser: its first
/// parse reflects over every command and looks up protocol conformances in the whole binary,
/// about a third of the main thread's work before the first frame. Anything else — another
/// spelling (`--book=PATH`), a repeated option, help, a subcommand, a mistake — is not
/// recognised here and goes to ArgumentParser, which stays the one judge of what is valid.
public struct AppLaunchArguments: Equatable {
    public var fresh = false
    public var exitAfterFirstFrame = false
    public var location: String?
    public var book: String?
    /// `--continue` or `--continue=DEVICE`: start at another machine's place.
    public var continueRequest: HandoffController.ContinueRequest?

    public init(fresh: Bool = false, exitAfterFirstFrame: Bool = false, location: String? = nil, book: String? = nil,
                continueRequest: HandoffController.ContinueRequest? = nil) {
        self.continueRequest = continueRequest
        self.fresh = fresh
        self.exitAfterFirstFrame = exitAfterFirstFrame
        self.location = location
        self.book = book
    }

    /// The device of `--continue=DEVICE`; nil for any other argument or an empty name.
    public static func continueDevice(_ argument: String) -> String? {
        guard argument.hasPrefix("--continue=") else { return nil }
        let device = String(argument.dropFirst("--continue=".count)).trimmingSpaces()
        return device.isEmpty ? nil : device
    }

    /// The launch these arguments ask for (the `-Key value` pairs already taken out), or nil
    /// when ArgumentParser must read them.
    public static func recognise(_ arguments: [String]) -> AppLaunchArguments? {
        var result = AppLaunchArguments()
        var seen: Set<String> = []
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard seen.insert(name).inserted else { return nil }
            switch name {
            case "--fresh": result.fresh = true
            case "--continue": result.continueRequest = .newest
            case "--exit-after-first-frame": result.exitAfterFirstFrame = true
            case "--location", "--book":
                // A value that looks like an option is left to ArgumentParser, except a
                // southern or western place (`--location -33.87,151.21`), which it takes too.
                guard let value = rest.popFirst(), !value.isEmpty,
                      !value.hasPrefix("-") || (name == "--location" && value.dropFirst().first?.isNumber == true) else { return nil }
                if name == "--location" { result.location = value } else { result.book = value }
            default:
                guard let device = Self.continueDevice(name) else { return nil }
                guard seen.insert("--continue").inserted else { return nil }
                result.continueRequest = .device(device)
            }
        }
        return result
    }
}
