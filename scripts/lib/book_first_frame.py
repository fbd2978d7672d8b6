"""Whole-process first frame of a book at a saved reading offset, ours against `less`.

Each run forks a process on a new pseudo-terminal (os.forkpty, no wrapper), starts the clock just
before the fork and stops it when the terminal output holds the whole first frame: the tag of the
paragraph at the saved offset (the page's top line) and the frame's last item (for `less` its
prompt, for wonderland the hint bar under the page). The resident memory of the process is read
from /proc at that moment, then the process is asked to quit with `q`.
"""
import os
import pty
import random
import select
import signal
import struct
import fcntl
import termios
import time

ROWS, COLUMNS = 24, 80

WORDS = ("the and of a to in was she her it that said you as at on with all had but for so be not "
         "very what this they little were one there down about like would when out them could "
         "herself went again into know thought time queen king rabbit hatter dormouse garden "
         "curious door tea mock turtle gryphon caterpillar mushroom duchess cheshire caf\u00e9 "
         "na\u00efve fa\u00e7ade r\u00e9sum\u00e9 \u2014 \u201cquite\u201d \u2018well\u2019").split()


def tag(number):
    return f"[p{number:07d}]"


def generate_book(path, size, seed=7):
    """A text of `size` bytes or a little less: paragraphs hard-wrapped at 66 columns, each
    starting with its own tag, a chapter heading every 200 paragraphs, LF line ends."""
    rng = random.Random(seed)
    bodies = []
    for _ in range(997):
        words = [rng.choice(WORDS) for _ in range(rng.randint(40, 140))]
        bodies.append(words)
    written = 0
    number = 0
    with open(path + ".part", "w", encoding="utf-8", newline="\n") as out:
        while True:
            chunk = []
            if number % 200 == 0:
                chunk.append(f"CHAPTER {number // 200 + 1}\n\n")
            words = [tag(number)] + bodies[number % len(bodies)]
            line, lines = "", []
            for word in words:
                if line and len(line) + 1 + len(word) > 66:
                    lines.append(line)
                    line = word
                else:
                    line = f"{line} {word}" if line else word
            lines.append(line)
            chunk.append("\n".join(lines) + "\n\n")
            text = "".join(chunk)
            encoded = len(text.encode("utf-8"))
            if written + encoded > size:
                break
            out.write(text)
            written += encoded
            number += 1
    os.replace(path + ".part", path)


def paragraph_at(path, fraction):
    """The byte offset and tag of the first paragraph starting at or after `fraction` of the file."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        f.seek(int(size * fraction))
        chunk = f.read(1 << 20)
    base = int(size * fraction)
    index = chunk.find(b"\n[p")
    if index < 0:
        raise SystemExit(f"no paragraph after {fraction:.0%} of {path}")
    start = base + index + 1
    return start, chunk[index + 1:index + 11].decode()


def _rss_kb(pid):
    """VmRSS, RssAnon and RssFile of `pid` in kB (zeros if it is gone)."""
    fields = {}
    try:
        for line in open(f"/proc/{pid}/status"):
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
                fields[key] = int(value.split()[0])
    except OSError:
        pass
    return fields


def run_once(argv, env, markers, timeout=10.0, settle=0.0):
    """Starts `argv` on a new pty; returns (ms to the frame, rss fields at the frame, rss fields
    `settle` seconds later or None, the output). Raises if the frame does not come."""
    start = time.perf_counter()
    pid, master = pty.fork()
    if pid == 0:
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    output = b""
    found_at = None
    rss = None
    deadline = start + timeout
    wanted = [m.encode() for m in markers]
    try:
        # The window size is set by the child before exec; the parent only reads.
        while found_at is None:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise RuntimeError(f"no frame within {timeout} s from {argv[0]}; output tail: {output[-400:]!r}")
            ready, _, _ = select.select([master], [], [], remaining)
            if not ready:
                continue
            try:
                data = os.read(master, 65536)
            except OSError:
                raise RuntimeError(f"{argv[0]} ended before its frame; output tail: {output[-400:]!r}")
            if not data:
                raise RuntimeError(f"{argv[0]} ended before its frame")
            output += data
            if all(w in output for w in wanted):
                found_at = time.perf_counter()
                rss = _rss_kb(pid)
        later = None
        if settle > 0:
            end = time.perf_counter() + settle
            while (left := end - time.perf_counter()) > 0:
                ready, _, _ = select.select([master], [], [], left)
                if ready:
                    try:
                        output += os.read(master, 65536)
                    except OSError:
                        break
            later = _rss_kb(pid)
    finally:
        _quit(pid, master)
    return (found_at - start) * 1000, rss, later, output


def _quit(pid, master):
    try:
        os.write(master, b"q")
    except OSError:
        pass
    deadline = time.perf_counter() + 5
    while time.perf_counter() < deadline:
        try:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                os.read(master, 65536)
        except OSError:
            pass
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(master)


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
