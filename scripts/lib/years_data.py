"""A heavy user's years of data in the app's own shapes, for scripts/bench-years.

Everything here is what an older wonderland left in defaults.plist, the shapes the app reads
(Sources/BookFront/Reader/ReadingPositions.swift, ReaderStorage.swift, Bookmark.swift,
Sources/BookFront/Characters/CharacterNotes.swift, Sources/Defaults/EditStamp.swift,
Sources/MapFront/Pin/MapPin.swift):

  WLReadingPositions     {book id: {offset: int, modified: real (Unix seconds), device: string}}
  WLBookmarks            {book id: data}, the data a binary NSKeyedArchiver archive of a
                         WLBookmarkList {bookID, bookmarks: NSArray of WLBookmark {offset,
                         title, created: NSDate}}
  WLCharacterNotes       {character id: string}
  WLFavouriteCharacters  {character id: true}
  HPLocation             the pin, {lat, long, title}

A book's id is the XXH64 (seed 0) of its bytes as 16 lowercase hex digits (ContentHash.swift,
for texts up to 64 MB), so the places and bookmarks belong to the books written beside them.
"""
import os
import plistlib
import random

MASK = (1 << 64) - 1
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
WORDS = ("alice rabbit queen hatter tea garden door key cake bottle mouse pool caucus race lizard "
         "caterpillar mushroom pigeon duchess baby cat gryphon turtle lobster quadrille tarts knave "
         "croquet flamingo hedgehog dormouse treacle well jury verdict sister bank daisy chain").split()
# NSDate counts from 2001-01-01; the stamps in places count from 1970.
REFERENCE_DATE = 978307200.0


def _rotl(value, bits):
    return ((value << bits) | (value >> (64 - bits))) & MASK


def _round(accumulator, lane):
    return (_rotl((accumulator + lane * P2) & MASK, 31) * P1) & MASK


def _merge(hash_value, accumulator):
    return (((hash_value ^ _round(0, accumulator)) * P1) + P4) & MASK


def xxh64(data, seed=0):
    """XXH64 by its public specification, as the app's ContentHash computes it."""
    length, offset = len(data), 0
    if length >= 32:
        v1, v2, v3, v4 = (seed + P1 + P2) & MASK, (seed + P2) & MASK, seed, (seed - P1) & MASK
        while offset <= length - 32:
            v1 = _round(v1, int.from_bytes(data[offset:offset + 8], "little"))
            v2 = _round(v2, int.from_bytes(data[offset + 8:offset + 16], "little"))
            v3 = _round(v3, int.from_bytes(data[offset + 16:offset + 24], "little"))
            v4 = _round(v4, int.from_bytes(data[offset + 24:offset + 32], "little"))
            offset += 32
        h = (_rotl(v1, 1) + _rotl(v2, 7) + _rotl(v3, 12) + _rotl(v4, 18)) & MASK
        for v in (v1, v2, v3, v4):
            h = _merge(h, v)
    else:
        h = (seed + P5) & MASK
    h = (h + length) & MASK
    while offset + 8 <= length:
        h = ((_rotl(h ^ _round(0, int.from_bytes(data[offset:offset + 8], "little")), 27) * P1) + P4) & MASK
        offset += 8
    if offset + 4 <= length:
        h = ((_rotl(h ^ ((int.from_bytes(data[offset:offset + 4], "little") * P1) & MASK), 23) * P2) + P3) & MASK
        offset += 4
    while offset < length:
        h = (_rotl(h ^ ((data[offset] * P5) & MASK), 11) * P1) & MASK
        offset += 1
    h ^= h >> 33
    h = (h * P2) & MASK
    h ^= h >> 29
    h = (h * P3) & MASK
    h ^= h >> 32
    return h


def book_id(data):
    return f"{xxh64(data):016x}"


def book_text(number, paragraphs, seed):
    """A plain-text book with chapters, distinct from every other number's."""
    rng = random.Random(seed * 1_000_003 + number)
    parts = [f"Book {number}: A Tale of Years\n\n"]
    per_chapter = max(1, paragraphs // 5)
    for p in range(paragraphs):
        if p % per_chapter == 0:
            parts.append(f"CHAPTER {p // per_chapter + 1}\n\n")
        parts.append(f"Paragraph {number}.{p}: " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(30, 60))) + ".\n\n")
    return "".join(parts).encode()


def write_books(folder, count, paragraphs=8, open_book_paragraphs=600, seed=7):
    """`count` distinct books in `folder`, book 0 the long one the benchmark reads; returns
    [(path, id, size)]."""
    os.makedirs(folder, exist_ok=True)
    books = []
    for number in range(count):
        data = book_text(number, open_book_paragraphs if number == 0 else paragraphs, seed)
        path = os.path.join(folder, f"book-{number:04d}.txt")
        with open(path, "wb") as f:
            f.write(data)
        books.append((path, book_id(data), len(data)))
    return books


def bookmark_archive(book, marks):
    """The binary keyed archive of a WLBookmarkList, laid out as the app's KeyedArchiver writes
    it: marks is [(offset, title, created as Unix seconds)]."""
    uid = plistlib.UID
    objects = ["$null", None, book, None]
    mark_uids = []
    for offset, title, created in marks:
        index = len(objects)
        objects += [{"offset": offset}, title, {"NS.time": created - REFERENCE_DATE}]
        mark_uids.append(index)
    classes = {}
    for name, hierarchy in (("NSDate", ["NSDate", "NSObject"]), ("WLBookmark", ["WLBookmark", "NSObject"]),
                            ("NSArray", ["NSArray", "NSObject"]), ("WLBookmarkList", ["WLBookmarkList", "NSObject"])):
        classes[name] = len(objects)
        objects.append({"$classes": hierarchy, "$classname": name})
    for index in mark_uids:
        objects[index].update({"$class": uid(classes["WLBookmark"]), "title": uid(index + 1), "created": uid(index + 2)})
        objects[index + 2]["$class"] = uid(classes["NSDate"])
    objects[1] = {"$class": uid(classes["WLBookmarkList"]), "bookID": uid(2), "bookmarks": uid(3)}
    objects[3] = {"$class": uid(classes["NSArray"]), "NS.objects": [uid(i) for i in mark_uids]}
    archive = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": uid(1)}, "$objects": objects}
    return plistlib.dumps(archive, fmt=plistlib.FMT_BINARY)


def note_text(character, size, seed=11):
    """About `size` bytes of prose paragraphs, a note kept for years."""
    rng = random.Random(f"{seed}-{character}")
    parts, total = [], 0
    while total < size:
        paragraph = " ".join(rng.choice(WORDS) for _ in range(rng.randint(40, 120))).capitalize() + ".\n\n"
        parts.append(paragraph)
        total += len(paragraph)
    return "".join(parts)[:size].rstrip() + "."


def heavy_defaults(books, characters, settings, bookmarks=5000, note_bytes=200_000, open_book_size=None,
                   now=1_790_000_000.0, device="years-laptop", seed=5):
    """The whole defaults domain of a heavy user: every book with a place (book 0's at its
    start, so the reader opens on the first page as a new user's does), `bookmarks` spread
    over the books, a note of `note_bytes` for each character, every third character a
    favourite, a pin, and `settings` (the settings a user has)."""
    rng = random.Random(seed)
    places = {}
    for number, (_, identifier, size) in enumerate(books):
        offset = 0 if number == 0 else rng.randrange(0, max(1, size - 200))
        places[identifier] = {"offset": offset, "modified": now - rng.uniform(0, 3 * 365 * 86400), "device": device}
    marks = {identifier: [] for _, identifier, _ in books}
    for mark in range(bookmarks):
        number = mark % len(books)
        _, identifier, size = books[number]
        # Book 0's marks sit in its last tenth, past every page the benchmark bookmarks.
        low = int(size * 0.9) if number == 0 else 0
        offset = rng.randrange(low, max(low + 1, size - 100))
        title = " ".join(rng.choice(WORDS) for _ in range(8))
        marks[identifier].append((offset, title, now - rng.uniform(0, 3 * 365 * 86400)))
    lists = {identifier: bookmark_archive(identifier, sorted(set(m), key=lambda t: t[0]))
             for identifier, m in marks.items() if m}
    values = dict(settings)
    values.update({
        "WLReadingPositions": places,
        "WLBookmarks": lists,
        "WLCharacterNotes": {character: note_text(character, note_bytes) for character in characters},
        "WLFavouriteCharacters": {character: True for character in characters[::3]},
        "HPLocation": {"lat": 51.7520, "long": -1.2577, "title": "Christ Church, Oxford"},
    })
    return values
