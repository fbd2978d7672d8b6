import PropertyList

/// The argument domain: `wonderland -HPMapType 2` overrides HPMapType for this run only.
public enum ArgumentDomain {
    /// Removes `-Key value` pairs from `arguments` (without the program name) so the argument
    /// parser never sees them. A key is a single dash, then a letter, then at least one more
    /// letter, digit, `_`, `.` or `-`; its value is the next argument whatever it looks like
    /// (so `-Offset -5` works). Long options (`--flag`) are kept and scanning goes on; scanning
    /// stops at `--` or at the first other argument (a subcommand such as `defaults`, whose own
    /// `-int`-style flags must reach it). Values are kept as strings; the typed getters convert.
    /// `optionsWithValues` are the program's own options that take a value (`--book PATH`): their
    /// value is passed on with them, and the scan goes on after it.
    public static func split(_ arguments: [String], optionsWithValues: Set<String> = []) -> (remaining: [String], domain: [String: PropertyListValue]) {
        var remaining: [String] = []
        var domain: [String: PropertyListValue] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" || !argument.hasPrefix("-") {
                break
            }
            if let key = key(in: argument), index + 1 < arguments.endIndex {
                domain[key] = .string(arguments[index + 1])
                index += 2
                continue
            }
            if optionsWithValues.contains(argument), index + 1 < arguments.endIndex {
                remaining.append(contentsOf: arguments[index...(index + 1)])
                index += 2
                continue
            }
            remaining.append(argument)
            index += 1
        }
        remaining.append(contentsOf: arguments[index...])
        return (remaining, domain)
    }

    /// The key `argument` names, or nil when it is not `-Key`.
    static func key(in argument: String) -> String? {
        guard argument.hasPrefix("-"), !argument.hasPrefix("--") else { return nil }
        let name = argument.dropFirst()
        guard name.count >= 2, let first = name.first, first.isASCII, first.isLetter else { return nil }
        let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
        return allowed ? String(name) : nil
    }
}
