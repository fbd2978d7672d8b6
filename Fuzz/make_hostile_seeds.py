#!/usr/bin/env python3
"""Writes the hostile seeds of the fuzz targets from scripts/hostile_files.py: shared-reference
bombs, NaN and infinite dates, deep nesting, cycles, each where that target reads it (a plist, a
defaults file, a peer's change file). Re-run only to change the seeds:

    python3 Fuzz/make_hostile_seeds.py
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
import hostile_files as h  # noqa: E402

# Small enough to mutate quickly; the full-size classes are in scripts/hostile-inputs.
PLISTS = {
    "hostile-bomb": h.shared_reference_bomb(40),
    "hostile-bomb-in-dictionary": h.shared_reference_bomb_in_dictionary("WLBad", 40),
    "hostile-nan-date": h.nan_date(),
    "hostile-infinite-date": h.infinite_date(),
    "hostile-far-date": h.far_date(),
    "hostile-deep": h.deep_binary(600),
    "hostile-cycle": h.reference_cycle(),
    "hostile-count-past-the-end": h.count_past_the_end(),
    "hostile-controls-binary": h.controls_and_bidi(),
}
XML = {
    "hostile-deep-xml": h.deep_xml(600),
    "hostile-controls": h.controls_xml(),
}


def write(target, name, data):
    folder = os.path.join(HERE, "Corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def main():
    for name, data in PLISTS.items():
        for target in ("FuzzBinaryPropertyList", "FuzzPlistPrint", "FuzzDefaultsRoundTrip"):
            write(target, name, data)
    for name, data in XML.items():
        for target in ("FuzzXMLPropertyList", "FuzzPlistPrint", "FuzzDefaultsRoundTrip"):
            write(target, name, data)
    write("FuzzArchivePrint", "hostile-archive-bomb", h.archive_bomb(40))
    write("KeyedUnarchiverFuzz", "hostile-archive-bomb", h.archive_bomb(40))
    clock = 1_750_000_000_000 << 16
    good = h.date_dictionary("d", 0.0)
    write("FuzzChangeFile", "hostile-bomb-value", h.change_file("fuzzpeer", [
        ("HPLocation", clock, h.shared_reference_bomb(40)), ("WLGood", clock + 1, good)]))
    write("FuzzChangeFile", "hostile-nan-date-value", h.change_file("fuzzpeer", [
        ("WLBad", clock, h.nan_date()), ("WLGood", clock + 1, good)]))
    write("FuzzChangeFile", "hostile-future-clock", h.change_file("fuzzpeer", [
        ("WLGood", (1 << 64) - 1, good)]))
    write("FuzzChangeFile", "plain", h.change_file("fuzzpeer", [
        ("WLGood", clock, good), ("WLGood", clock + 5, None), ("k" * 64, clock + 6, good)]))


main()
