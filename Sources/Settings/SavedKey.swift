/// The names the settings screens save their place under: each spelled once, here. They are
/// on every user's disk, so a name never changes once shipped.
enum SavedKey {
    static let selectedRowID = "selectedRowID"
    static let scrollOffset = "scrollOffset"
    static let editingKey = "editingKey"
    static let editingText = "editingText"
    static let editingCursor = "editingCursor"
}
