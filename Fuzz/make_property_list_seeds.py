#!/usr/bin/env python3
"""Writes the small seed corpora of the property-list fuzz targets with plistlib, so the seeds
come from an independent writer. Re-run only to change the seeds:

    python3 Fuzz/make_property_list_seeds.py
"""
import datetime
import os
import plistlib

HERE = os.path.dirname(os.path.abspath(__file__))

SEEDS = {
    "scalars": {"s": "hello", "i": 42, "neg": -7, "big": 2**40, "r": 1.5, "t": True, "f": False,
                "d": datetime.datetime(2020, 2, 29, 12, 30, 45), "data": b"\x00\x01\xfe\xff"},
    "unicode": ["caf\u00e9", "rabbit \U0001F407", "", "x" * 20, "<&>"],
    "nested": {"a": [{"b": [[], {}]}, [1, [2, [3]]]], "k" * 16: list(range(20))},
    "uids": [plistlib.UID(1), plistlib.UID(300), {"$class": plistlib.UID(2)}],
    "top-string": "only a string",
}


def main():
    for fmt, target in ((plistlib.FMT_XML, "FuzzXMLPropertyList"), (plistlib.FMT_BINARY, "FuzzBinaryPropertyList")):
        folder = os.path.join(HERE, "Corpus", target)
        os.makedirs(folder, exist_ok=True)
        for name, value in SEEDS.items():
            if fmt == plistlib.FMT_XML and name == "uids":
                continue  # plistlib writes UIDs in binary only; the XML seed below covers CF$UID
            with open(os.path.join(folder, name), "wb") as f:
                f.write(plistlib.dumps(value, fmt=fmt))
    with open(os.path.join(HERE, "Corpus", "FuzzXMLPropertyList", "cfuid-comment-cdata"), "wb") as f:
        f.write(b'<?xml version="1.0" encoding="UTF-8"?>\n<!-- c -->\n<plist version="1.0">\n<array>\n'
                b'\t<dict><key>CF$UID</key><integer>0x1F</integer></dict>\n'
                b'\t<string><![CDATA[a<b]]>&amp;&#x41;&#66;</string>\n\t<data>AAE=</data>\n\t<real>nan</real>\n'
                b'\t<true/><false></false><string/><array/><dict/>\n</array>\n</plist>\n')


main()
