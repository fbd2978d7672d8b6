#!/usr/bin/env python3
"""An independent reference merge of a Wonderland synced-store folder.

Parses every change file (*.wlkv, not starting with '.') itself, with struct, zlib's CRC-32 and
plistlib, and merges last-writer-wins per key by (hybrid clock, device), equal stamps settled by
the payload bytes (a value beats a removal, then the greater bytes win), as
Sources/Cloud/Model/ChangeRecord.swift does. Shares no code with the Swift reader.

File format (big-endian): header b"WLKV\\x01\\x00\\x00\\x00"; each record: u32 body length, u32
CRC-32 of the body, body = u16 key length, key UTF-8, u64 clock, u8 device length, device,
u8 flags (1 = removal), value bytes (binary plist). A record running past the end of the file
is not there yet; a damaged one is skipped by looking for the next valid record.

The server backend keeps only each key's winning row, so the merge of all writes made through it
comes from the writers' journals instead (cloud-hammer's WONDERLAND_HAMMER_JOURNAL): JSON lines
{"key", "payload": hex of the plist bytes or null for a removal, "clock": raw u64, "device"}.
A line cut short by a killed writer is skipped.

Usage: cloud-reference-merge.py FOLDER            prints {key: value} as sorted JSON
       cloud-reference-merge.py FOLDER --raw      {key: base64 of the value's plist bytes}
       cloud-reference-merge.py FOLDER --time N   also times N read+merge passes (stderr: median ms)
       cloud-reference-merge.py --journals FILE... [--raw | --stamps]
                                                  the same from journals; --stamps prints every
                                                  key's winner, removals included:
                                                  {key: {"clock", "device", "payload": hex|null}}
       --first-writer-wins                        a deliberately WRONG merge (the earliest stamp
                                                  wins), for tests that show a check can fail
"""
import base64
import datetime
import json
import os
import plistlib
import struct
import sys
import time
import zlib

HEADER = b"WLKV\x01\x00\x00\x00"
MIN_BODY = 13
MAX_BODY = 4 << 20
DEVICE_CHARS = set(b"0123456789abcdefghijklmnopqrstuvwxyz-")


def parse_body(body):
    key_length, = struct.unpack_from(">H", body, 0)
    at = 2
    if at + key_length + 9 > len(body):
        return None
    key = body[at:at + key_length]
    at += key_length
    clock, = struct.unpack_from(">Q", body, at)
    at += 8
    device_length = body[at]
    at += 1
    if device_length < 1 or at + device_length + 1 > len(body):
        return None
    device = body[at:at + device_length]
    at += device_length
    flags = body[at]
    at += 1
    if flags not in (0, 1) or (flags == 1 and at != len(body)):
        return None
    if not set(device) <= DEVICE_CHARS or len(device) > 64:
        return None
    try:
        key = key.decode("utf-8")
    except UnicodeDecodeError:
        return None
    payload = None if flags == 1 else bytes(body[at:])
    return key, clock, device.decode("ascii"), payload


def record_at(data, at):
    """(record, next offset), 'incomplete' or 'damaged'."""
    if len(data) - at < 8:
        return "incomplete"
    length, crc = struct.unpack_from(">II", data, at)
    if length < MIN_BODY or length > MAX_BODY:
        return "damaged"
    if at + 8 + length > len(data):
        return "incomplete"
    body = data[at + 8:at + 8 + length]
    record = parse_body(body)
    if record is None or zlib.crc32(body) != crc:
        return "damaged"
    return record, at + 8 + length


def next_valid(data, at):
    for candidate in range(at + 1, len(data) - 8 - MIN_BODY + 1):
        if isinstance(record_at(data, candidate), tuple):
            return candidate
    return None


def read_file(data):
    records = []
    if data[:len(HEADER)] == HEADER:
        at = len(HEADER)
    elif len(data) < len(HEADER) and HEADER.startswith(data):
        return records
    else:
        at = next_valid(data, 0)
    while at is not None and at < len(data):
        found = record_at(data, at)
        if isinstance(found, tuple):
            records.append(found[0])
            at = found[1]
        else:
            at = next_valid(data, at)
    return records


def read_folder(folder):
    records = []
    for name in sorted(os.listdir(folder)):
        if name.startswith(".") or not name.endswith(".wlkv"):
            continue
        try:
            with open(os.path.join(folder, name), "rb") as file:
                records.extend(read_file(file.read()))
        except OSError:
            pass
    return records


def read_journals(paths):
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as file:
            for line in file:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue  # the last line of a writer killed mid-write
                payload = None if entry["payload"] is None else bytes.fromhex(entry["payload"])
                records.append((entry["key"], int(entry["clock"]), entry["device"], payload))
    return records


def order(record):
    key, clock, device, payload = record
    return (clock, device, payload is not None, payload or b"")


def merge(records, first_writer_wins=False):
    latest = {}
    for record in records:
        current = latest.get(record[0])
        if current is None or (order(record) < order(current) if first_writer_wins else order(record) > order(current)):
            latest[record[0]] = record
    return latest


def to_json(value):
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, datetime.datetime):
        return value.replace(tzinfo=datetime.timezone.utc).timestamp() if value.tzinfo is None else value.timestamp()
    if isinstance(value, list):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    if isinstance(value, plistlib.UID):
        return value.data
    return value


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    wrong = "--first-writer-wins" in sys.argv
    if sys.argv[1] == "--journals":
        paths = [a for a in sys.argv[2:] if not a.startswith("--")]
        if not paths:
            sys.exit("cloud-reference-merge: --journals needs at least one file")
        try:
            latest = merge(read_journals(paths), wrong)
        except (OSError, KeyError, ValueError) as error:
            sys.exit(f"cloud-reference-merge: cannot read the journals: {error}")
        print_state(latest)
        return
    folder = sys.argv[1]
    if not os.path.isdir(folder):
        sys.exit(f"cloud-reference-merge: cannot read {folder}")
    if "--time" in sys.argv:
        runs = int(sys.argv[sys.argv.index("--time") + 1])
        timings = []
        for _ in range(runs):
            start = time.perf_counter()
            records = read_folder(folder)
            merge(records)
            timings.append((time.perf_counter() - start) * 1000)
        print(f"records {len(records)}", file=sys.stderr)
        print(f"median_ms {sorted(timings)[len(timings) // 2]:.1f}", file=sys.stderr)
        print("runs_ms " + " ".join(f"{t:.1f}" for t in timings), file=sys.stderr)
    print_state(merge(read_folder(folder), wrong))


def print_state(latest):
    if "--stamps" in sys.argv:
        state = {key: {"clock": r[1], "device": r[2], "payload": None if r[3] is None else r[3].hex()}
                 for key, r in latest.items()}
    elif "--raw" in sys.argv:
        state = {key: base64.b64encode(r[3]).decode() for key, r in latest.items() if r[3] is not None}
    else:
        state = {key: to_json(plistlib.loads(r[3], fmt=plistlib.FMT_BINARY)) for key, r in latest.items() if r[3] is not None}
    print(json.dumps(state, sort_keys=True, ensure_ascii=False))


if __name__ == "__main__":
    main()
