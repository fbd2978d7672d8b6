import Screens

/// What a settings pane remembers: small, plain fields, what the restoration engine saves.
public struct SettingsPaneState: Hashable, Sendable, Codable {
    /// The selected row: a defaults key, `Key#n` for the n-th choice of a radio group, or
    /// `pane:File` for a child pane. Ids survive a schema that grew or shrank.
    public var selectedRowID: String?
    /// The first line shown (lines, not rows: group titles and footers count).
    public var scrollOffset: Int
    /// The key of the text field being edited, nil when none is.
    public var editingKey: String?
    /// The unsaved text of that field.
    public var editingText: String
    /// The cursor in that text, in characters.
    public var editingCursor: Int

    /// A state; the defaults are a pane just opened: at the top, nothing edited (the screen
    /// then selects its first row).
    public init(selectedRowID: String? = nil, scrollOffset: Int = 0, editingKey: String? = nil, editingText: String = "", editingCursor: Int = 0) {
        self.selectedRowID = selectedRowID
        self.scrollOffset = scrollOffset
        self.editingKey = editingKey
        self.editingText = editingText
        self.editingCursor = editingCursor
    }

    /// The edited text as a text field, for editing.
    var field: TextFieldState {
        get { TextFieldState(editingText, cursor: editingCursor) }
        set {
            editingText = newValue.text
            editingCursor = newValue.cursor
        }
    }
}
