import TestPrerequisites

extension Prerequisite {
    /// Python, whose plistlib the interop tests compare with.
    static let python3 = program("python3", remedy: "scripts/setup installs it (Debian's python3)")
}
