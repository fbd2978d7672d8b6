/// Every key the book front saves state under, each spelled once: in the restoration archive,
/// in the defaults and inside the values it keeps there. The spellings are on users' disks
/// (and synced to other devices): a key is never renamed, only added.
enum SavedKey {
    // The reader's place in the restoration archive (ReaderScreen).
    static let bookPath = "bookPath"
    static let bookID = "bookID"
    static let offset = "offset"
    static let offsetModified = "offsetModified"
    static let offsetDevice = "offsetDevice"

    // A character's page in the restoration archive (CharacterDetailScreen).
    static let characterID = "characterID"
    static let isEditing = "isEditing"
    static let text = "text"
    static let line = "line"
    static let column = "column"
    static let infoScroll = "infoScroll"
    // The chapters the page showed, and the book file they were found in.
    static let appearances = "appearances"
    static let appearancesChapterCount = "appearancesChapterCount"
    static let appearancesNames = "appearancesNames"
    static let appearancesBookSize = "appearancesBookSize"
    static let appearancesBookChanged = "appearancesBookChanged"
    static let appearancesBookInode = "appearancesBookInode"

    // A bookmark and a book's list of them, archived in the defaults (Bookmark, BookmarkList);
    // a bookmark's page is `offset`, its list's book `bookID`.
    static let title = "title"
    static let created = "created"
    static let bookmarks = "bookmarks"

    // A reading place in the defaults is `{offset, modified, device}` (ReadingPlace, EditStamp);
    // a character's note `{text, otherVersions}` (CharacterNote).
    static let otherVersions = "otherVersions"
    // CharacterDetailScreen: the note as it was when editing began.
    static let editedFromText = "editedFromText"
    static let editedFromOtherVersions = "editedFromOtherVersions"

    // The defaults.
    static let readingPositions = "WLReadingPositions"
    static let bookmarkLists = "WLBookmarks"
    static let characterNotes = "WLCharacterNotes"
    static let favouriteCharacters = "WLFavouriteCharacters"
    static let textWidth = "WLTextWidth"
    static let showPageNumbers = "WLShowPageNumbers"
    static let justifyText = "WLJustifyText"
    static let theme = "WLTheme"
}
