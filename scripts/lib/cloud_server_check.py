#!/usr/bin/env python3
"""Checks a synced store on a server against the reference merge of its writers' journals.

    cloud_server_check.py --journals J... [--dumps D...] [--rows ROWS.tsv] [--first-writer-wins]

The reference is scripts/cloud-reference-merge.py's (independent of the Swift code): last writer
wins by (clock, device), equal stamps settled by the payload. Every dump (cloud-hammer dump: JSON
key → value) must equal the reference's live values; the server's rows (tab-separated: key,
clock, device, deleted t/f, value hex, as psql -At -F'\\t' prints them) must hold each key's
winning clock, device and value or removal. Prints one line per difference (with up to three
keys) and a summary; exits 1 on any difference. --first-writer-wins makes the reference wrong on
purpose, to show a check can fail.
"""
import importlib.util
import json
import os
import plistlib
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("reference", os.path.join(here, "..", "cloud-reference-merge.py"))
reference_merge = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reference_merge)


def arguments():
    groups, current = {"--journals": [], "--dumps": [], "--rows": []}, None
    for argument in sys.argv[1:]:
        if argument in groups:
            current = argument
        elif argument == "--first-writer-wins":
            continue
        elif current:
            groups[current].append(argument)
        else:
            sys.exit(__doc__)
    if not groups["--journals"]:
        sys.exit(__doc__)
    return groups


def main():
    groups = arguments()
    records = reference_merge.read_journals(groups["--journals"])
    latest = reference_merge.merge(records, "--first-writer-wins" in sys.argv)
    values = {key: reference_merge.to_json(plistlib.loads(r[3], fmt=plistlib.FMT_BINARY))
              for key, r in latest.items() if r[3] is not None}
    stamps = {key: {"clock": r[1], "device": r[2], "payload": None if r[3] is None else r[3].hex()} for key, r in latest.items()}
    ok = True
    for path in groups["--dumps"]:
        try:
            dump = json.load(open(path))
        except (OSError, ValueError):
            ok = False
            print(f"{os.path.basename(path)} is missing or not JSON: that device could not dump")
            continue
        diff = [k for k in sorted(set(dump) | set(values)) if dump.get(k) != values.get(k)]
        if diff:
            ok = False
            print(f"{os.path.basename(path)} differs from the reference on {len(diff)} keys, e.g. " +
                  ", ".join(f"{k}: {dump.get(k)!r} vs {values.get(k)!r}" for k in diff[:3]))
    for path in groups["--rows"]:
        rows = {}
        for line in open(path, encoding="utf-8"):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 5:
                sys.exit(f"{path}: not a row of key, clock, device, deleted, value: {line!r}")
            key, clock, device, deleted, value = fields
            rows[key] = {"clock": int(clock), "device": device, "payload": None if deleted == "t" else value}
        diff = [k for k in sorted(set(rows) | set(stamps)) if rows.get(k) != stamps.get(k)]
        if diff:
            ok = False
            print(f"the server's table differs from the reference on {len(diff)} keys, e.g. " +
                  ", ".join(f"{k}: {rows.get(k)!r} vs {stamps.get(k)!r}" for k in diff[:3]))
    print(f"{len(records)} journaled records, {len(values)} live keys: " +
          ("every dump and the server's table equal the reference merge" if ok else "DIFFERENT from the reference merge"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
