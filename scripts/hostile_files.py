"""Hostile files for the hostile-input table: each class is a small function returning bytes,
written by hand (not by the app's own writers) so a bug in a writer cannot hide one in a reader.
Imported by scripts/hostile-inputs and by Fuzz/make_hostile_seeds.py."""
import math
import os
import plistlib
import struct


def _bplist(objects, top=0):
    """A binary plist from pre-encoded objects (bytes each), one-byte refs where they fit."""
    count = len(objects)
    ref_size = 1 if count < 256 else 2 if count < 65536 else 4
    body = bytearray(b"bplist00")
    offsets = []
    for encoded in objects:
        offsets.append(len(body))
        body += encoded(ref_size) if callable(encoded) else encoded
    table_start = len(body)
    offset_size = 1 if table_start < 256 else 2 if table_start < 65536 else 4
    for offset in offsets:
        body += offset.to_bytes(offset_size, "big")
    body += bytes(6) + bytes([offset_size, ref_size])
    body += struct.pack(">QQQ", count, top, table_start)
    return bytes(body)


def _length(marker, count):
    if count < 15:
        return bytes([marker | count])
    return bytes([marker | 0xF, 0x13]) + count.to_bytes(8, "big")


def _array(refs):
    return lambda size: _length(0xA0, len(refs)) + b"".join(r.to_bytes(size, "big") for r in refs)


def _dict(keys, values):
    return lambda size: (_length(0xD0, len(keys)) + b"".join(r.to_bytes(size, "big") for r in keys)
                         + b"".join(r.to_bytes(size, "big") for r in values))


def _ascii(text):
    raw = text.encode("ascii")
    return _length(0x50, len(raw)) + raw


def _date(seconds):
    return b"\x33" + struct.pack(">d", seconds)


def shared_reference_bomb(levels=40, width=2):
    """Object k is an array of `width` references to object k+1: width**levels once expanded."""
    objects = [_array([k + 1] * width) for k in range(levels)]
    objects.append(_ascii("x"))
    return _bplist(objects)


def shared_reference_bomb_in_dictionary(key, levels=40):
    """The bomb as the value of one key of a top-level dictionary (a defaults file)."""
    objects = [_dict([1], [2]), _ascii(key)]
    objects += [_array([k + 3] * 2) for k in range(levels)]
    objects.append(_ascii("x"))
    return _bplist(objects)


def deep_binary(levels=100_000):
    """Arrays nested `levels` deep, each holding the next."""
    objects = [_array([k + 1]) for k in range(levels)]
    objects.append(_ascii("x"))
    return _bplist(objects)


def deep_xml(levels=100_000):
    return (b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n'
            + b"<array>" * levels + b"</array>" * levels + b"\n</plist>\n")


def wide_xml(elements=2_000_000):
    """Two million empty strings: a 20 MB file that is a lot of objects, not a lot of bytes."""
    return (b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<array>'
            + b"<string/>" * elements + b"</array>\n</plist>\n")


def date_dictionary(key, seconds):
    """{key: date} with any double, NaN and infinities included."""
    return _bplist([_dict([1], [2]), _ascii(key), _date(seconds)])


def nan_date(key="WLBadDate"):
    return date_dictionary(key, math.nan)


def infinite_date(key="WLBadDate"):
    return date_dictionary(key, math.inf)


def far_date(key="WLBadDate"):
    return date_dictionary(key, 1e300)


def count_past_the_end():
    """A string that claims 2^62 bytes."""
    return _bplist([b"\x5F\x13" + (1 << 62).to_bytes(8, "big") + b"abc"])


def reference_cycle():
    return _bplist([_array([1]), _array([0])])


HOSTILE_TITLE = "Pigeon\u202Egnp.exe \x1b[31mred\x1b[0m \x07\x9b2J \x7f end"


def hostile_place():
    """A remembered place (Pigeon's HPLocation) whose title carries a right-to-left override,
    escapes and C1 bytes."""
    return {"lat": 51.5, "long": -0.12, "title": HOSTILE_TITLE}


def controls_and_bidi(key="HPLocation"):
    return plistlib.dumps({key: hostile_place()}, fmt=plistlib.FMT_BINARY)


def controls_xml():
    """The same title in XML, written by hand: plistlib refuses control characters there."""
    title = "Pigeon\u202Egnp.exe \x1b[31mred\x1b[0m \x07\u009b2J \x7f end".encode()
    return (b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict><key>title</key><string>'
            + title + b"</string></dict>\n</plist>\n")


def long_key_line(size=1 << 20):
    """An XML plist whose one bad line is a megabyte long: error messages must not copy it."""
    return (b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict><key>'
            + b"k" * size + b"</key><bogus/></dict>\n</plist>\n")


def archive_bomb(levels=40):
    """An NSKeyedArchiver archive whose root NSArray holds the next one twice, `levels` deep."""
    uid = plistlib.UID
    objects = ["$null"]
    array_class = len(objects) + levels
    for k in range(levels):
        objects.append({"NS.objects": [uid(k + 2), uid(k + 2)], "$class": uid(array_class + 1)})
    objects.append("leaf")
    objects.append({"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]})
    archive = {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": uid(1)},
               "$objects": objects}
    # plistlib writes each UID and list anew, but the sharing here is by UID, which the
    # unarchiver follows: 2**levels objects once expanded.
    return plistlib.dumps(archive, fmt=plistlib.FMT_BINARY)


def garbage(size=4096, seed=7):
    state = seed
    out = bytearray()
    for _ in range(size):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(state >> 16 & 0xFF)
    return b"bplist00" + bytes(out)


# Each class: name, what it is, the bytes (a function of the key a placement needs).
PLIST_CLASSES = [
    ("shared-reference bomb", "40 levels of an array holding the next twice (2^40 expanded), 320 bytes",
     lambda key: shared_reference_bomb_in_dictionary(key)),
    ("shared-reference bomb, wide", "12 levels of 16 references (16^12 expanded)",
     lambda key: _bplist([_dict([1], [2]), _ascii(key)] + [_array([k + 3] * 16) for k in range(12)] + [_ascii("x")])),
    ("deep binary", "arrays nested 100,000 deep", lambda key: deep_binary()),
    ("deep XML", "<array> nested 100,000 deep", lambda key: deep_xml()),
    ("wide XML", "2,000,000 empty strings in 18 MB", lambda key: wide_xml()),
    ("NaN date", "a date whose seconds are NaN", lambda key: nan_date(key)),
    ("infinite date", "a date at +infinity", lambda key: infinite_date(key)),
    ("far date", "a date 1e300 seconds away", lambda key: far_date(key)),
    ("count past the end", "a string claiming 2^62 bytes", lambda key: count_past_the_end()),
    ("reference cycle", "two arrays holding each other", lambda key: reference_cycle()),
    ("garbage", "4 KB of random bytes after the magic", lambda key: garbage()),
    ("1 MB line", "a bad XML line one megabyte long", lambda key: long_key_line()),
    ("controls and bidi", "a pin title with U+202E, ESC[31m, BEL, CSI (U+009B), DEL", lambda key: controls_and_bidi()),
    ("keyed-archive bomb", "an NSKeyedArchiver archive whose NSArrays share 40 levels", lambda key: archive_bomb()),
]


def special_file(kind, path):
    """Makes `path` a FIFO, a link to /dev/zero, a 3 GB sparse file or a directory."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        os.symlink("/dev/zero", path)
    elif kind == "sparse-3g":
        with open(path, "wb") as f:
            f.truncate(3 << 30)
    elif kind == "directory":
        os.mkdir(path)
    else:
        raise ValueError(kind)


SPECIAL_CLASSES = [
    ("FIFO", "a named pipe nobody writes to", "fifo"),
    ("/dev/zero", "a symlink to /dev/zero", "dev-zero"),
    ("3 GB sparse", "a 3 GB file of zeros (sparse)", "sparse-3g"),
    ("directory", "a directory in the file's place", "directory"),
]


def change_file(device, records):
    """A sync-folder change file: records are (key, clock, value bytes or None for a removal)."""
    import binascii
    out = bytearray(b"WLKV\x01\x00\x00\x00")
    for key, clock, value in records:
        raw_key = key.encode()
        body = (struct.pack(">H", len(raw_key)) + raw_key + struct.pack(">Q", clock)
                + bytes([len(device)]) + device.encode() + bytes([1 if value is None else 0]) + (value or b""))
        out += struct.pack(">II", len(body), binascii.crc32(body) & 0xFFFFFFFF) + body
    return bytes(out)
