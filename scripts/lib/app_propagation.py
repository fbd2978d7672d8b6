#!/usr/bin/env python3
"""The pin's propagation between two running wonderlands in tmux, for one sync place.

    app_propagation.py BINARY WORK SOCKET NAME WRITES VAR=VALUE...

Two devices (two HOMEs under WORK), both with the given environment (WONDERLAND_SYNC_FOLDER=… or
WONDERLAND_SYNC_URL=… and PGPASSWORD=…) and Sync Locations on; from the Enter that remembers a
place in one to the pin's title on the other's screen (capture-pane polled every ~5 ms). Two
warm-up writes, then WRITES measured ones 0.4 s apart; prints `delay_ms X` per write.
As scripts/bench-cloud-propagation measures the folder, so both backends are timed the same way.
"""
import os
import re
import subprocess
import sys
import time

binary, work, socket, name, writes = sys.argv[1:6]
writes = int(writes)
extra_env = " ".join(sys.argv[6:])


def tmux(*args):
    return subprocess.run(["tmux", "-L", socket, *args], check=True, capture_output=True, text=True).stdout


def screen(pane):
    return tmux("capture-pane", "-p", "-t", pane)


def wait(pane, predicate, what, timeout=20):
    deadline = time.monotonic() + timeout
    while True:
        text = screen(pane)
        if predicate(text):
            return time.monotonic()
        if time.monotonic() > deadline:
            sys.exit(f"app_propagation ({name}): timed out waiting for {what} in pane {pane}:\n{text}")
        time.sleep(0.005)


def launch(pane, home):
    env = f"env -i PATH=/usr/bin:/bin TERM=tmux-256color LANG=C.UTF-8 HOME={home} {extra_env}"
    tmux("send-keys", "-t", pane, "-l", f"clear; {env} {binary} --location 48.8566,2.3522 -HPSyncLocations YES; echo exit=$?")
    tmux("send-keys", "-t", pane, "Enter")
    wait(pane, lambda t: "1 Map" in t, "the first frame")


# The tab bar's status: "synced" (a folder) or "synced · server postgres://…" (a server).
synced = lambda t: re.search(r"(^|\s)synced(\s|$)", t.splitlines()[0]) is not None
tmux("-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "100", "-y", "24", "bash --norc --noprofile")
try:
    tmux("set-option", "-g", "window-size", "manual")
    tmux("split-window", "-t", f"{name}:0", "-h", "bash --norc --noprofile")
    tmux("resize-window", "-t", f"{name}:0", "-x", "201", "-y", "24")
    a, b = f"{name}:0.0", f"{name}:0.1"
    time.sleep(0.3)
    homes = [os.path.join(work, f"{name}-a"), os.path.join(work, f"{name}-b")]
    for home in homes:
        os.makedirs(home, exist_ok=True)
    launch(a, homes[0])
    launch(b, homes[1])
    for pane in (a, b):
        wait(pane, synced, "the synced indicator")
    for i in range(writes + 2):
        title = f"Pin {name[:4]} {i:02d}"
        tmux("send-keys", "-t", a, "r")
        wait(a, lambda t: "Remember this place" in t, "the prompt")
        tmux("send-keys", "-t", a, "C-u")
        tmux("send-keys", "-t", a, "-l", title)
        wait(a, lambda t: title in t, "the title typed")
        start = time.monotonic()
        tmux("send-keys", "-t", a, "Enter")
        seen = wait(b, lambda t: "⚑ " + title in t, f"“{title}” on the other instance")
        if i >= 2:
            print(f"delay_ms {(seen - start) * 1000:.1f}", flush=True)
        time.sleep(0.4)
    for pane in (a, b):
        tmux("send-keys", "-t", pane, "q")
    for pane in (a, b):
        wait(pane, lambda t: "exit=0" in t, "the quit")
finally:
    subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
