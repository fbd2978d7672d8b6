"""Runs inside a terminal: turns on what the app turns on, then writes every byte the terminal sends.

usage: key_recorder.py OUT_FILE [--replies] [--normal]

Sets the tty raw, writes the entry's smkx (keypad transmit), metaSendsEscape (1036), SGR mouse
(1000, 1002, 1006) and bracketed paste (2004), as the app does (--normal: all but smkx), then appends what it reads to
OUT_FILE until it reads "\\x07q" (Ctrl-G then q: the driver's end mark). With --replies it
first sends the usual queries (DA1, DA2, CPR, XTVERSION, OSC 11, DECRQM 2004, kitty keyboard)
and writes their replies to OUT_FILE.replies.
"""
import curses
import os
import select
import sys
import termios
import time
import tty


def main():
    out_path = sys.argv[1]
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setraw(fd)
    curses.setupterm()
    smkx = b"" if "--normal" in sys.argv else (curses.tigetstr("smkx") or b"")
    modes = smkx + b"\x1b[?1036h\x1b[?1000h\x1b[?1002h\x1b[?1006h\x1b[?2004h"
    os.write(1, modes)
    try:
        if "--replies" in sys.argv:
            queries = b"\x1b[c\x1b[>c\x1b[6n\x1b[>q\x1b]11;?\x1b\\\x1b[?2004$p\x1b[?u\x1b[c"
            os.write(1, queries)
            got = read_for(fd, 1.5)
            with open(out_path + ".replies", "wb") as f:
                f.write(got)
        with open(out_path, "wb") as f:
            f.write(b"")
            buffer = b""
            while not buffer.endswith(b"\x07q"):
                r, _, _ = select.select([fd], [], [], 60)
                if not r:
                    break
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                buffer += chunk
                f.write(chunk)
                f.flush()
    finally:
        os.write(1, b"\x1b[?2004l\x1b[?1006l\x1b[?1002l\x1b[?1000l" + (curses.tigetstr("rmkx") or b""))
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def read_for(fd, seconds):
    got = b""
    deadline = time.time() + seconds
    while time.time() < deadline:
        r, _, _ = select.select([fd], [], [], max(0, deadline - time.time()))
        if r:
            got += os.read(fd, 4096)
    return got


if __name__ == "__main__":
    main()
