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
    /// The edited text as a text field, kept as the field keeps it: a key typed changes it in
    /// place, where going through a string would copy and split the whole text at every key.
    var field: TextFieldState

    /// The unsaved text of that field.
    public var editingText: String {
        get { field.text }
        set { field = TextFieldState(newValue, cursor: field.cursor) }
    }
    /// The cursor in that text, in characters.
    public var editingCursor: Int {
        get { field.cursor }
        set { field = TextFieldState(field.text, cursor: newValue) }
    }

    /// A state; the defaults are a pane just opened: at the top, nothing edited (the screen
    /// then selects its first row).
    public init(selectedRowID: String? = nil, scrollOffset: Int = 0, editingKey: String? = nil, editingText: String = "", editingCursor: Int = 0) {
        self.selectedRowID = selectedRowID
        self.scrollOffset = scrollOffset
        self.editingKey = editingKey
        self.field = TextFieldState(editingText, cursor: editingCursor)
    }

    private enum CodingKeys: String, CodingKey { case selectedRowID, scrollOffset, editingKey, editingText, editingCursor }

    public init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(selectedRowID: try values.decodeIfPresent(String.self, forKey: .selectedRowID),
                  scrollOffset: try values.decode(Int.self, forKey: .scrollOffset),
                  editingKey: try values.decodeIfPresent(String.self, forKey: .editingKey),
                  editingText: try values.decode(String.self, forKey: .editingText),
                  editingCursor: try values.decode(Int.self, forKey: .editingCursor))
    }

    public func encode(to encoder: Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encodeIfPresent(selectedRowID, forKey: .selectedRowID)
        try values.encode(scrollOffset, forKey: .scrollOffset)
        try values.encodeIfPresent(editingKey, forKey: .editingKey)
        try values.encode(editingText, forKey: .editingText)
        try values.encode(editingCursor, forKey: .editingCursor)
    }
}
