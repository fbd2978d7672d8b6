#!/usr/bin/env python3
"""Writes the small seed corpora of the settings-schema, EPUB and gpsd fuzz targets with tools
independent of the code under test: plistlib for settings panes, zipfile for EPUBs, gpsd lines
written by hand after gpsd's JSON protocol documentation. Re-run only to change the seeds:

    python3 Fuzz/make_seeds.py

Input layouts (see Fuzz/README.md): a settings seed is Root.plist, then P1.plist, P2.plist, ...
separated by PANE; an EPUB-contents seed is "path\\ncontents" entries separated by FILE (the
harness adds the mimetype entry and zips them).
"""
import io
import os
import plistlib
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
PANE = b"\n--pane--\n"
FILE = b"\n--file--\n"


def write(target, name, data):
    folder = os.path.join(HERE, "Corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def pane(specifiers, title=None, fmt=plistlib.FMT_XML):
    top = {"PreferenceSpecifiers": specifiers}
    if title:
        top["Title"] = title
    return plistlib.dumps(top, fmt=fmt)


# ---- settings schema ----

EVERY_TYPE = [
    {"Type": "PSGroupSpecifier", "Title": "Map", "FooterText": "Where the map starts."},
    {"Type": "PSTextFieldSpecifier", "Title": "Name", "Key": "name", "DefaultValue": "Alice",
     "IsSecure": False, "KeyboardType": "Alphabet", "AutocapitalizationType": "Words", "AutocorrectionType": "No"},
    {"Type": "PSToggleSwitchSpecifier", "Title": "Labels", "Key": "labels", "DefaultValue": True},
    {"Type": "PSSliderSpecifier", "Key": "zoom", "DefaultValue": 6, "MinimumValue": 1, "MaximumValue": 18},
    {"Type": "PSSliderSpecifier", "Key": "speed", "DefaultValue": 0.5, "MinimumValue": 0.0, "MaximumValue": 1.0,
     "MinimumValueImage": "slow.png", "MaximumValueImage": "fast.png"},
    {"Type": "PSMultiValueSpecifier", "Title": "Map Type", "Key": "mapType", "DefaultValue": 2,
     "Titles": ["Standard", "Satellite", "Hybrid"], "ShortTitles": ["Std", "Sat", "Hyb"], "Values": [0, 1, 2]},
    {"Type": "PSRadioGroupSpecifier", "Title": "Units", "Key": "units", "DefaultValue": "km",
     "Titles": ["Kilometres", "Miles"], "Values": ["km", "mi"]},
    {"Type": "PSTitleValueSpecifier", "Title": "Version", "Key": "version", "DefaultValue": "1.0",
     "Titles": ["One"], "Values": ["1.0"]},
    {"Type": "PSChildPaneSpecifier", "Title": "More", "File": "P1"},
]
CHILD = [
    {"Type": "PSToggleSwitchSpecifier", "Title": "Sync", "Key": "sync", "DefaultValue": "YES",
     "TrueValue": "YES", "FalseValue": "NO"},
    {"Type": "PSChildPaneSpecifier", "Title": "Deeper", "File": "P2.plist"},
]
CYCLE = [
    {"Type": "PSChildPaneSpecifier", "Title": "Back", "File": "Root"},
    {"Type": "PSChildPaneSpecifier", "Title": "Nowhere", "File": "Missing"},
    {"Type": "PSTextFieldSpecifier", "Title": "Secret", "Key": "secret", "IsSecure": True, "KeyboardType": "NumberPad"},
]
BROKEN = [
    "not a dictionary",
    {"Title": "no type"},
    {"Type": 3},
    {"Type": "PSUnknownSpecifier"},
    {"Type": "PSSliderSpecifier", "Key": "s", "DefaultValue": 200, "MinimumValue": 40, "MaximumValue": 120},
    {"Type": "PSSliderSpecifier", "Key": "t", "DefaultValue": 1, "MinimumValue": 5, "MaximumValue": 5},
    {"Type": "PSMultiValueSpecifier", "Title": "M", "Key": "m", "DefaultValue": 9, "Titles": ["a"], "Values": [1, 2]},
    {"Type": "PSToggleSwitchSpecifier", "Title": "T", "Key": "", "DefaultValue": [1]},
    {"Type": "PSChildPaneSpecifier", "Title": "Up", "File": "../Root"},
    {"Type": "PSTextFieldSpecifier", "Key": "k", "KeyboardType": "Klingon"},
]


def settings_seeds():
    target = "FuzzSettingsSchema"
    write(target, "every-type", pane(EVERY_TYPE, title="Wonderland") + PANE + pane(CHILD) + PANE + pane(CYCLE))
    write(target, "binary-root", pane(EVERY_TYPE[:8], fmt=plistlib.FMT_BINARY))
    write(target, "broken-items", pane(BROKEN))
    write(target, "not-a-plist", b"PreferenceSpecifiers = (Type);")
    # Regression: an integral slider ending at Int64.max trapped when asked for the value at its end.
    write(target, "regression-slider-int64-max", pane([
        {"Type": "PSSliderSpecifier", "Key": "k", "DefaultValue": 0, "MinimumValue": -2**63, "MaximumValue": 2**63 - 1}]))
    # The app's own bundle, its child pane renamed to the harness's P1.
    bundle = os.path.join(REPO, "Resources", "Settings.bundle")
    with open(os.path.join(bundle, "Root.plist"), "rb") as f:
        root = plistlib.load(f)
    with open(os.path.join(bundle, "Profile.plist"), "rb") as f:
        profile = plistlib.load(f)
    for item in root["PreferenceSpecifiers"]:
        if item.get("File") == "Profile":
            item["File"] = "P1"
    write(target, "wonderland-bundle", plistlib.dumps(root) + PANE + plistlib.dumps(profile))


# ---- EPUB ----

CONTAINER = b"""<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
"""


def chapter(title, body, anchor=None):
    heading = '<h1 id="%s">%s</h1>' % (anchor, title) if anchor else "<h1>%s</h1>" % title
    return ("""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>%s</title><style>p { margin: 0 }</style></head>
<body>%s
%s
</body></html>
""" % (title, heading, body)).encode()


ONE = chapter("Down the Rabbit-Hole", """<p>Alice was beginning to get <em>very</em> tired of sitting by her sister
on the bank.</p>
<p>&#8220;What is the use of a book,&#8221; thought Alice, &#x201C;without pictures&#x201D;&amp;nbsp;<br/>or
<strong>conversations</strong>?</p>
<script>never()</script>
<h2 id="well">The Well</h2>
<p>Either the well was very deep, or she fell very slowly.</p>""", anchor="one")
TWO = chapter("The Pool of Tears", "<p><i>Curiouser</i> and <b>curiouser</b>!</p><ul><li>a</li><li>b</li></ul>"
              "<table><tr><td>x</td><td>y</td></tr></table><pre>  kept\n  as is</pre>")


def opf(version, toc_attr, extra_manifest):
    return ("""<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="%s" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:title>Alice&apos;s Adventures</dc:title><dc:identifier id="id">urn:uuid:alice</dc:identifier>
  </metadata>
  <manifest>
    <item id="one" href="text/one.xhtml" media-type="application/xhtml+xml"/>
    <item id="two" href="text/two%%20pool.xhtml" media-type="application/xhtml+xml"/>
    %s
  </manifest>
  <spine%s><itemref idref="one"/><itemref idref="two"/><itemref idref="gone"/></spine>
</package>
""" % (version, extra_manifest, toc_attr)).encode()


NAV = b"""<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
<nav epub:type="toc"><ol>
  <li><a href="text/one.xhtml">I. Down the Rabbit-Hole</a><ol><li><a href="text/one.xhtml#well">The Well</a></li></ol></li>
  <li><a href="text/two%20pool.xhtml">II. The Pool of Tears</a></li>
</ol></nav></body></html>
"""

NCX = b"""<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>
  <navPoint id="p1" playOrder="1"><navLabel><text>Chapter I</text></navLabel><content src="text/one.xhtml"/>
    <navPoint id="p2" playOrder="2"><navLabel><text>The Well</text></navLabel><content src="text/one.xhtml#well"/></navPoint>
  </navPoint>
  <navPoint id="p3" playOrder="3"><navLabel><text>Chapter II</text></navLabel><content src="text/two%20pool.xhtml"/></navPoint>
</navMap></ncx>
"""

BOOKS = {
    "epub3-nav": [
        ("META-INF/container.xml", CONTAINER),
        ("OEBPS/content.opf", opf("3.0", "", '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>')),
        ("OEBPS/nav.xhtml", NAV), ("OEBPS/text/one.xhtml", ONE), ("OEBPS/text/two pool.xhtml", TWO),
    ],
    "epub2-ncx": [
        ("META-INF/container.xml", CONTAINER),
        ("OEBPS/content.opf", opf("2.0", ' toc="ncx"', '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>')),
        ("OEBPS/toc.ncx", NCX), ("OEBPS/text/one.xhtml", ONE), ("OEBPS/text/two pool.xhtml", TWO),
    ],
    "no-contents-entities": [
        ("META-INF/container.xml", CONTAINER),
        ("OEBPS/content.opf", opf("3.0", "", "")),
        ("OEBPS/text/one.xhtml", b'<?xml version="1.0"?><!DOCTYPE html [<!ENTITY a "aaaa">]>'
                                 b'<html><body><h1>Only</h1><p>&a;&a; and <em>unclosed</p></body></html>'),
        ("OEBPS/text/two pool.xhtml", TWO),
    ],
    "font-obfuscation": [
        ("META-INF/container.xml", CONTAINER),
        ("META-INF/encryption.xml", b'<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                                    b'<EncryptedData><EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/><CipherData><CipherReference URI="OEBPS/text/one.xhtml"/>'
                                    b'</CipherData></EncryptedData></encryption>'),
        ("OEBPS/content.opf", opf("3.0", "", "")),
        ("OEBPS/text/one.xhtml", ONE),
    ],
}


def epub_zip(files, compression):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), b"application/epub+zip", compress_type=zipfile.ZIP_STORED)
        for path, data in files:
            z.writestr(zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0)), data, compress_type=compression)
    return buffer.getvalue()


def epub_seeds():
    for name, files in BOOKS.items():
        write("FuzzEPUB", name + ".epub", epub_zip(files, zipfile.ZIP_DEFLATED))
        write("FuzzEPUBContents", name, FILE.join(path.encode() + b"\n" + data for path, data in files))
    # Stored entries: a mutation inside them meets the CRC check rather than inflate.
    write("FuzzEPUB", "epub2-stored.epub", epub_zip(BOOKS["epub2-ncx"], zipfile.ZIP_STORED))
    write("FuzzEPUB", "escaping-path.epub", epub_zip([("../outside.xhtml", ONE)] + BOOKS["epub3-nav"][:2], zipfile.ZIP_STORED))


# ---- gpsd ----

GPSD = {
    "session": b'{"class":"VERSION","release":"3.25","rev":"3.25","proto_major":3,"proto_minor":15}\n'
               b'{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0","driver":"NMEA0183",'
               b'"activated":"2026-11-22T10:00:00.000Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}]}\n'
               b'{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false}\n'
               b'{"class":"TPV","device":"/dev/ttyUSB0","mode":1}\n'
               b'{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-11-22T10:00:01.000Z","ept":0.005,'
               b'"lat":48.856613,"lon":2.352222,"alt":35.0,"epx":8.2,"epy":9.1,"track":271.3,"speed":1.25,"climb":0.0}\n',
    "sky": b'{"class":"SKY","device":"/dev/ttyUSB0","hdop":1.2,"satellites":[{"PRN":5,"el":45,"az":120,"ss":38,"used":true},'
           b'{"PRN":12,"el":10.5,"az":300,"ss":0,"used":false}]}\r\n',
    "error-and-nan": b'{"class":"ERROR","message":"Can\'t open \\"/dev/ttyUSB9\\": \\u00e9"}\n'
                     b'{"class":"TPV","mode":2,"lat":-33.8688,"lon":151.2093,"track":nan,"speed":-nan,"epx":Infinity}\n'
                     b'{"class":"TPV","mode":3,"lat":NaN,"lon":2.35}\n',
    "partial-and-junk": b'{"class":"TPV","mode":3,"lat":91,"lon":0}\n\n[1,2,{"a":null}]\nnot json\n{"class":"TP',
    "devices-empty": b'{"class":"DEVICES","devices":[]}\n{"class":"DEVICE","path":"/dev/ttyACM0","activated":0}\n'
                     b'{"class":"TPV","mode":3,"lat":1e-3,"lon":-180,"track":360,"speed":0}\n',
    # Regression: a finite mode too big for Int trapped the TPV reader.
    "regression-mode-1e300": b'{"class":"TPV","mode":1e300,"lat":1,"lon":2}\n{"class":"TPV","mode":-9223372036854775809}\n',
}


def gpsd_seeds():
    for name, data in GPSD.items():
        write("FuzzGPSDReader", name, data)


settings_seeds()
epub_seeds()
gpsd_seeds()
