#!/usr/bin/env python3
"""Writes the crafted bad property lists in this folder.

Each file is named KIND.what-is-wrong.EXT: KIND is the PropertyListError.Kind the reader must
throw, EXT picks the reader (bplist: binary, plist: XML, any: format detection). The tests
derive their expectations from these names. Run from anywhere:

    python3 Tests/PropertyListTests/Crafted/make_crafted.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def bplist(objects, top=0, ref_size=1, offset_size=1, count=None, table_offset=None, version=b"00",
           declared_offset_size=None, offsets=None):
    """Assembles a binary plist from raw object bytes; the keyword arguments falsify the
    offset table or trailer fields."""
    body = b"bplist" + version
    real_offsets = []
    for obj in objects:
        real_offsets.append(len(body))
        body += obj
    table = len(body)
    for off in real_offsets if offsets is None else offsets:
        body += off.to_bytes(offset_size, "big")
    declared = offset_size if declared_offset_size is None else declared_offset_size
    body += bytes(6) + bytes([declared, ref_size])
    body += struct.pack(">QQQ", len(objects) if count is None else count, top,
                        table if table_offset is None else table_offset)
    return body


def ascii_string(s):
    assert len(s) < 15
    return bytes([0x50 | len(s)]) + s.encode()


def array(*refs, ref_size=1):
    return bytes([0xA0 | len(refs)]) + b"".join(r.to_bytes(ref_size, "big") for r in refs)


def dict_(keys, values):
    return bytes([0xD0 | len(keys)]) + bytes(keys) + bytes(values)


def xml(body, prolog=""):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + prolog +
            '<plist version="1.0">\n' + body + '\n</plist>\n').encode()


DOCTYPE = ('<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
           '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n')

deep = [array(i + 1, ref_size=2) for i in range(599)] + [array()]

FILES = {
    # Binary
    "badMagic.not-a-bplist.bplist": b"bplixt00" + bytes(40),
    "unsupportedVersion.bplist15.bplist": bplist([b"\x09"], version=b"15"),
    "truncated.header-only.bplist": b"bplist00",
    "truncated.integer-runs-into-offset-table.bplist": bplist([b"\x13\x00\x01"]),
    "badTrailer.offset-size-zero.bplist": bplist([b"\x09"], declared_offset_size=0),
    "badTrailer.reference-size-nine.bplist": bplist([b"\x09"], ref_size=9),
    "countTooLarge.object-count-2-to-the-62.bplist": bplist([b"\x09"], count=1 << 62),
    "offsetOutOfRange.table-overlaps-trailer.bplist": bplist([b"\x09"], table_offset=1 << 40),
    "offsetOutOfRange.object-offset-past-table.bplist": bplist([b"\x09"], offsets=[0x7F]),
    "referenceOutOfRange.top-object.bplist": bplist([b"\x09"], top=5),
    "referenceOutOfRange.array-element.bplist": bplist([array(7)]),
    "referenceCycle.array-contains-itself.bplist": bplist([array(0)]),
    "referenceCycle.dictionary-array-loop.bplist": bplist([dict_([1], [2]), ascii_string("k"), array(0)]),
    "tooDeep.600-nested-arrays.bplist": bplist(deep, ref_size=2, offset_size=2),
    "countTooLarge.array-count-2-to-the-60.bplist": bplist([b"\xaf\x13" + (1 << 60).to_bytes(8, "big")]),
    "countTooLarge.data-longer-than-file.bplist": bplist([b"\x4f\x12" + (100000).to_bytes(4, "big") + b"abc"]),
    "invalidUTF16.unpaired-high-surrogate.bplist": bplist([b"\x62\xd8\x3d\x00\x41"]),
    "invalidUTF16.lone-low-surrogate.bplist": bplist([b"\x61\xdc\x00"]),
    "invalidASCII.high-byte-in-ascii-string.bplist": bplist([b"\x53ab\xe9"]),
    "integerOverflow.nine-byte-uid.bplist": bplist([b"\x88" + bytes(9)]),
    "invalidKey.integer-key.bplist": bplist([dict_([1], [1]), b"\x10\x05"]),
    "unsupportedObject.set.bplist": bplist([b"\xc1\x01", b"\x09"]),
    "unsupportedObject.null.bplist": bplist([b"\x00"]),
    "unsupportedObject.two-byte-real.bplist": bplist([b"\x21\x00\x00"]),
    # XML
    "entityDeclaration.billion-laughs.plist": (
        '<?xml version="1.0"?>\n<!DOCTYPE plist [\n <!ENTITY lol "lol">\n'
        + "".join(' <!ENTITY lol%d "%s">\n' % (i, ("&lol%d;" % (i - 1) if i > 1 else "&lol;") * 10) for i in range(1, 10))
        + ']>\n<plist version="1.0"><string>&lol9;</string></plist>\n').encode(),
    "entityDeclaration.external-entity.plist":
        b'<?xml version="1.0"?>\n<!DOCTYPE plist [\n<!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>\n'
        b'<plist version="1.0"><string>&xxe;</string></plist>\n',
    "entityDeclaration.parameter-entity.plist":
        b'<?xml version="1.0"?>\n<!DOCTYPE plist [\n%remote;\n]>\n<plist version="1.0"><true/></plist>\n',
    "unknownEntity.undeclared-reference.plist": xml("<string>&xxe;</string>", DOCTYPE),
    "malformedDate.month-13.plist": xml("<date>2020-13-01T00:00:00Z</date>", DOCTYPE),
    "malformedDate.not-iso-8601.plist": xml("<date>yesterday</date>", DOCTYPE),
    "malformedDate.february-30.plist": xml("<date>2021-02-30T00:00:00Z</date>", DOCTYPE),
    "unknownTag.set-element.plist": xml("<set><string>a</string></set>", DOCTYPE),
    "mismatchedTag.string-closed-by-key.plist": xml("<dict>\n<key>a</key>\n<string>b</key>\n</dict>", DOCTYPE),
    "truncated.ends-inside-dict.plist": xml("<dict><key>a</key><string>b</string>", DOCTYPE)[:-10],
    "integerOverflow.past-uint64.plist": xml("<integer>18446744073709551616</integer>", DOCTYPE),
    "integerOverflow.below-int64.plist": xml("<integer>-9223372036854775809</integer>", DOCTYPE),
    "malformedNumber.integer-with-letters.plist": xml("<integer>12ab</integer>", DOCTYPE),
    "malformedNumber.real-is-text.plist": xml("<real>one point five</real>", DOCTYPE),
    "malformedData.bad-base64.plist": xml("<data>AQI*</data>", DOCTYPE),
    "invalidUTF8.overlong-slash.plist": xml("<string>@</string>", DOCTYPE).replace(b"@", b"\xc0\xaf"),
    "invalidUTF8.encoded-surrogate.plist": xml("<string>@</string>", DOCTYPE).replace(b"@", b"\xed\xa0\x80"),
    "tooDeep.600-nested-arrays.plist": xml("<array>" * 600 + "</array>" * 600, DOCTYPE),
    "malformedXML.key-without-value.plist": xml("<dict><key>a</key></dict>", DOCTYPE),
    "malformedXML.text-between-elements.plist": xml("<array>stray<true/></array>", DOCTYPE),
    "malformedXML.root-is-not-plist.plist": b'<?xml version="1.0"?>\n<dict></dict>\n',
    "malformedXML.content-after-plist.plist": xml("<true/>", DOCTYPE) + b"<true/>\n",
    "unsupportedEncoding.declares-utf-16.plist": b'<?xml version="1.0" encoding="UTF-16"?>\n<plist><true/></plist>\n',
    # Format detection
    "unknownFormat.neither-xml-nor-binary.any": b"hello, I am not a property list\n",
}


def main():
    for name in os.listdir(HERE):
        if name.endswith((".bplist", ".plist", ".any")) and not name.startswith("fuzz-"):
            os.remove(os.path.join(HERE, name))
    for name, content in FILES.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(content)


main()
