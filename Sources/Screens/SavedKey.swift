/// Every key the screens of this module save their state under in the restoration archive,
/// each spelled once. The spelling is on users' disks: a key is never renamed, only added.
enum SavedKey {
    // PagerScreen
    static let anchorOffset = "anchorOffset"
    // TabScreen
    static let selectedTab = "selectedTab"
    static let selectedIndex = "selectedIndex"
    // ListScreen
    static let selectedID = "selectedID"
    static let rowsAboveSelection = "rowsAboveSelection"
    static let neighbourIDs = "neighbourIDs"
    static let filter = "filter"
    static let filterCursor = "filterCursor"
    static let isEditingFilter = "isEditingFilter"
    // Prompt and TextEditorScreen
    static let text = "text"
    static let cursor = "cursor"
    static let line = "line"
    static let column = "column"
    // TextEditorScreen: the first row shown, as its paragraph and the byte its row starts at
    static let topParagraph = "topParagraph"
    static let topOffset = "topOffset"
    // KeptQuestion: a question with a text field on show over a screen
    static let questionKind = "questionKind"
    static let questionText = "questionText"
    static let questionCursor = "questionCursor"
}
