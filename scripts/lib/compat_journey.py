"""Journeys of one release of wonderland in tmux, and what it saved, for the compatibility checks.

Used by scripts/compat-fixtures, scripts/downgrade-check and scripts/mixed-fleet-check. Every
run has a HOME of its own with every XDG folder and the sync folder passed explicitly to the
session command (a tmux server keeps the environment of the client that started it).
"""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import time

import wonderland_home

# The book every journey reads: small enough to keep beside the fixtures, several pages long.
BOOK_SEED = 7
BOOK_CHAPTERS = 2
BOOK_PARAGRAPHS = 24
PIN = {"lat": 48.8566, "long": 2.3522}
CHARACTER = ("white-rabbit", "White Rabbit")
NOTE = "Late, always late."
DRAFT_TYPED = " Then the"
DRAFT_LEFT = 3
ESC_PAUSE = 0.35


class JourneyError(Exception):
    pass


class Machine:
    """One HOME (a machine) with its folders; the sync folder may be shared with another."""

    def __init__(self, root, sync_folder=None):
        self.home = os.path.abspath(root)
        os.makedirs(self.home, mode=0o700, exist_ok=True)
        self.sync = sync_folder or os.path.join(self.home, "sync")
        self.book = os.path.join(self.home, "book.txt")

    def env(self):
        h = self.home
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": h,
            "XDG_CONFIG_HOME": f"{h}/.config",
            "XDG_STATE_HOME": f"{h}/.local/state",
            "XDG_DATA_HOME": f"{h}/.local/share",
            "XDG_CACHE_HOME": f"{h}/.cache",
            "XDG_RUNTIME_DIR": f"{h}/run",
            "WONDERLAND_SYNC_FOLDER": self.sync,
            "TERM": "tmux-256color",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
        }
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
        return env

    def prepare(self, binary, book=True):
        """The book, the sync folder (made by hand: older releases have no `cloud init`) and both
        Sync toggles on, written by the release itself."""
        if book and not os.path.exists(self.book):
            wonderland_home.write_book(self.book, chapters=BOOK_CHAPTERS, paragraphs=BOOK_PARAGRAPHS, seed=BOOK_SEED)
        os.makedirs(self.sync, mode=0o700, exist_ok=True)
        for key in ("HPSyncLocations", "WLSyncReadingPosition"):
            self.run(binary, "defaults", "write", key, "-bool", "YES")

    def run(self, binary, *args, check=True):
        out = subprocess.run([binary, *args], env=self.env(), capture_output=True, text=True, timeout=60)
        if check and out.returncode != 0:
            raise JourneyError(f"{binary} {' '.join(args)}: exit {out.returncode}: {out.stderr.strip()}")
        return out.stdout

    def command_line(self, binary, *args):
        env = " ".join(f"{k}={v}" for k, v in self.env().items())
        quoted = " ".join(subprocess.list2cmdline([a]) for a in args)
        return f"env -i {env} {binary} {quoted}; echo exit=$?"

    # What the release saved, read through its files (any release) or its commands.
    @property
    def archive(self):
        return f"{self.home}/.local/state/wonderland/restoration.archive"

    @property
    def defaults_plist(self):
        return f"{self.home}/.config/wonderland/defaults.plist"

    @property
    def collections_db(self):
        return f"{self.home}/.local/share/wonderland/collections/collections.sqlite"

    def state_show(self, binary):
        return self.run(binary, "state", "show", check=False)


class Tmux:
    def __init__(self, socket, width=100, height=30):
        self.socket = socket
        self.width, self.height = width, height
        self.sessions = []

    def cmd(self, *args, check=True):
        out = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True)
        if check and out.returncode != 0:
            raise JourneyError(f"tmux {' '.join(args)}: {out.stderr.strip()}")
        return out.stdout

    def start(self, name, command):
        """A session whose only program is `command` (followed by a long sleep, so the screen
        after the app's exit can be read)."""
        self.cmd("kill-session", "-t", name, check=False)
        args = ["-f", "/dev/null", "new-session", "-d", "-s", name, "-x", str(self.width), "-y", str(self.height),
                f"{command}; sleep 86400"] if not self.sessions else \
               ["new-session", "-d", "-s", name, "-x", str(self.width), "-y", str(self.height), f"{command}; sleep 86400"]
        self.cmd(*args)
        self.sessions.append(name)

    def screen(self, name):
        return self.cmd("capture-pane", "-p", "-t", name)

    def keys(self, name, *keys):
        for key in keys:
            if key == "Escape":
                self.cmd("send-keys", "-t", name, "Escape")
                time.sleep(ESC_PAUSE)
            else:
                self.cmd("send-keys", "-t", name, key)
            time.sleep(0.05)

    def text(self, name, text):
        self.cmd("send-keys", "-t", name, "-l", text)
        time.sleep(0.05)

    def wait(self, name, predicate, what, timeout=15):
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen(name)
            if predicate(text):
                return text
            if time.monotonic() > deadline:
                raise JourneyError(f"timed out waiting for {what}; the screen:\n{text}")
            time.sleep(0.05)

    def wait_for(self, name, needle, timeout=15):
        return self.wait(name, lambda t: needle in t, repr(needle), timeout)

    def kill(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def wait_exit(tmux, name, timeout=15):
    text = tmux.wait(name, lambda t: re.search(r"exit=\d+", t) is not None, "the app to exit", timeout)
    return int(re.search(r"exit=(\d+)", text).group(1))


def status_line(screen):
    """The editor's last line says `Ln L, Col C`."""
    m = re.search(r"Ln (\d+), Col (\d+)", screen)
    return (int(m.group(1)), int(m.group(2))) if m else None


def page_of(screen):
    m = re.search(r"page (\d+) of (\d+)", screen)
    return (int(m.group(1)), int(m.group(2))) if m else None


def set_pin(tmux, s, title, pressed=None):
    """Remembers the map's place under `title`; `pressed` (a list) gets the time Enter was sent."""
    tmux.keys(s, "1")
    tmux.wait_for(s, "Zoom ")
    tmux.keys(s, "r")
    tmux.wait_for(s, "Enter OK")
    tmux.keys(s, "C-u")
    tmux.text(s, title)
    tmux.wait_for(s, title)
    if pressed is not None:
        pressed.append(time.monotonic())
    tmux.keys(s, "Enter")
    return tmux.wait_for(s, "⚑ " + title)


def turn_pages(tmux, s, pages):
    tmux.keys(s, "3")
    first = page_of(tmux.wait(s, lambda t: page_of(t) is not None, "the Book tab's page"))
    for _ in range(pages):
        before = page_of(tmux.screen(s))
        tmux.keys(s, "Space")
        tmux.wait(s, lambda t: page_of(t) is not None and page_of(t) != before, "the next page")
    return first, page_of(tmux.screen(s))


def add_bookmark(tmux, s):
    tmux.keys(s, "a")
    return tmux.wait_for(s, "Bookmark added")


def star_favourite(tmux, s):
    """Stars the selected row with `f` when this release has favourites; True if it did."""
    tmux.keys(s, "f")
    time.sleep(0.6)
    screen = tmux.screen(s)
    return any("favourite" in line for line in screen.splitlines()[2:5])


def open_character(tmux, s):
    cid, name = CHARACTER
    tmux.keys(s, "2")
    screen = tmux.wait(s, lambda t: "Characters" in t.splitlines()[1], "the Characters tab")
    if "›" in screen.splitlines()[1]:  # a pushed screen restored: back to the list
        tmux.keys(s, "Escape")
        tmux.wait(s, lambda t: t.splitlines()[1].strip() == "Characters", "the character list")
    tmux.keys(s, "g")
    tmux.wait(s, lambda t: "▸ Alice" in t, "the first row")
    tmux.keys(s, "j")
    tmux.wait(s, lambda t: "▸ " + name in t, "the row of " + name)


def write_note(tmux, s, note):
    _, name = CHARACTER
    tmux.keys(s, "Enter")
    tmux.wait_for(s, "Characters › " + name)
    tmux.keys(s, "e")
    tmux.wait_for(s, "editing")
    tmux.text(s, note)
    tmux.wait_for(s, note)
    tmux.keys(s, "Escape")
    return tmux.wait(s, lambda t: "editing" not in t and note in t, "the note saved")


def leave_draft(tmux, s, typed, left):
    tmux.keys(s, "e")
    start = status_line(tmux.wait(s, lambda t: "editing" in t and status_line(t), "the editor"))
    tmux.text(s, typed)
    tmux.wait(s, lambda t: status_line(t) == (start[0], start[1] + len(typed)), "the draft typed")
    for _ in range(left):
        tmux.keys(s, "Left")
    return tmux.wait(s, lambda t: status_line(t) == (start[0], start[1] + len(typed) - left), "the cursor moved left")


def version(binary):
    return subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()


# Reading what a release saved, through the files alone (so any release can be read).
def archive_values(machine, binary):
    """`state show`'s `key = value` lines per screen path."""
    screens, path = {}, None
    for line in machine.state_show(binary).splitlines():
        m = re.match(r"^  (\S+)(\s+\[.*\])?$", line)
        if m and not line.startswith("    "):
            path = m.group(1)
            screens[path] = {}
            continue
        m = re.match(r"^      (\w+) = (.*)$", line)
        if m and path:
            screens[path][m.group(1)] = m.group(2)
    return screens


def saved_collections(machine, binary):
    """Notes, bookmarks, places and favourites, from the collections (0.4.0 on) or defaults.plist."""
    import plistlib
    out = {}
    plist = {}
    if os.path.exists(machine.defaults_plist):
        with open(machine.defaults_plist, "rb") as f:
            plist = plistlib.load(f)
    for key in ("WLCharacterNotes", "WLBookmarks", "WLReadingPositions", "WLFavouriteCharacters"):
        value = None
        if os.path.exists(machine.collections_db):
            r = subprocess.run([binary, "collections", "export", key, "-", "--format", "xml"], env=machine.env(),
                               capture_output=True, timeout=30)
            if r.returncode == 0 and r.stdout.strip():
                value = plistlib.loads(r.stdout)
        if value is None:
            value = plist.get(key)
        out[key] = value
    out["HPLocation"] = plist.get("HPLocation")
    return out


def keyed_archive_offsets(data):
    """The `offset` of every object in a keyed archive (a bookmark list)."""
    import plistlib
    archive = plistlib.loads(data)
    objects = archive.get("$objects", [])
    offsets = []
    for obj in objects:
        if isinstance(obj, dict) and "offset" in obj:
            v = obj["offset"]
            if isinstance(v, plistlib.UID):
                v = objects[v.data]
            offsets.append(v)
    return offsets


def place_offset(value):
    """A reading place: an integer (0.3.0) or a dictionary with its stamp."""
    if isinstance(value, dict):
        return value.get("offset")
    return value


def copy_saved(machine, out):
    """What the release saved, into `out` with the XDG folders' names: config/, state/, data/, sync/."""
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    h = machine.home
    picks = [
        (f"{h}/.config/wonderland/defaults.plist", "config/wonderland/defaults.plist"),
        (f"{h}/.local/state/wonderland/restoration.archive", "state/wonderland/restoration.archive"),
        (f"{h}/.local/state/wonderland/restoration.log", "state/wonderland/restoration.log"),
    ]
    copied = []
    for src, rel in picks:
        if os.path.isfile(src):
            dst = os.path.join(out, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
            copied.append(rel)
    # The collections database as one file (its write-ahead log folded in), as a reader opens it.
    if os.path.isfile(machine.collections_db):
        rel = "data/wonderland/collections/collections.sqlite"
        dst = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        src = sqlite3.connect(f"file:{machine.collections_db}?mode=ro", uri=True)
        dest = sqlite3.connect(dst)
        src.backup(dest)
        dest.execute("VACUUM")
        dest.close()
        src.close()
        os.chmod(dst, 0o600)
        copied.append(rel)
    # The sync folder's change files and the local copy of the synced store.
    for src_dir, rel_dir in ((machine.sync, "sync"), (f"{h}/.local/share/wonderland/synced-store", "data/wonderland/synced-store"),
                             (f"{h}/.local/share/wonderland/cloud", "data/wonderland/cloud")):
        if not os.path.isdir(src_dir):
            continue
        for root, _, files in os.walk(src_dir):
            for name in files:
                if name.endswith(".lock"):
                    continue
                src = os.path.join(root, name)
                rel = os.path.join(rel_dir, os.path.relpath(src, src_dir))
                dst = os.path.join(out, rel)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(src, dst)
                copied.append(rel)
    if os.path.isfile(machine.book):
        shutil.copy2(machine.book, os.path.join(out, "book.txt"))
        copied.append("book.txt")
    return sorted(copied)


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")
