/// Steps the synced-store journeys share, folder or server alike.
extension TmuxSession {
    /// On the Map tab: `r`, the title in place of the suggested one, Enter; waits for the pin.
    func rememberPlace(_ title: String) throws {
        try type("r")
        _ = try waitForText("Remember this place")
        try press("C-u")
        try type(title)
        try press("Enter")
        _ = try waitForText("⚑ \(title)")
    }

    /// On the Map tab: `c` and the confirm's `y`.
    func clearPin() throws {
        try type("c")
        _ = try waitForText("Clear the pin")
        try type("y")
    }
}
