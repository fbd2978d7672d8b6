/// Where a word starts and ends, for moving by words in text fields and the editor: a word is a
/// run of letters and digits, as in readline's Alt-b and Alt-f.
enum WordMotion {
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// The start of the word before `index`, skipping what is not a word first.
    static func start(before index: Int, in characters: [Character]) -> Int {
        var position = min(index, characters.count)
        while position > 0 && !isWordCharacter(characters[position - 1]) { position -= 1 }
        while position > 0 && isWordCharacter(characters[position - 1]) { position -= 1 }
        return position
    }

    /// The end of the word after `index`, skipping what is not a word first.
    static func end(after index: Int, in characters: [Character]) -> Int {
        var position = max(0, index)
        while position < characters.count && !isWordCharacter(characters[position]) { position += 1 }
        while position < characters.count && isWordCharacter(characters[position]) { position += 1 }
        return position
    }
}
