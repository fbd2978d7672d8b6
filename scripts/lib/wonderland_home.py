"""A throw-away HOME for one run of the app, and what the app saved in it.

Used by scripts/xterm-journeys and scripts/soak: every run gets its own HOME and XDG folders,
passed explicitly to whatever starts the app (a tmux server or an X terminal keeps the
environment of whoever started it, not of the caller), and reads the saved state back through
the app's own commands, so a check sees exactly what the next launch would restore.
"""
import os
import plistlib
import shutil
import subprocess
import tempfile

XDG_NAMES = ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR")


class Home:
    def __init__(self, prefix="wl-home-"):
        self.path = tempfile.mkdtemp(prefix=prefix)
        os.chmod(self.path, 0o700)

    def env(self, lang="C.UTF-8", extra=None):
        """The whole environment for the app (nothing inherited but PATH)."""
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": self.path,
            "XDG_CONFIG_HOME": os.path.join(self.path, ".config"),
            "XDG_STATE_HOME": os.path.join(self.path, ".local/state"),
            "XDG_DATA_HOME": os.path.join(self.path, ".local/share"),
            "XDG_CACHE_HOME": os.path.join(self.path, ".cache"),
            "XDG_RUNTIME_DIR": os.path.join(self.path, "run"),
            "LANG": lang,
            "LC_ALL": lang,
        }
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
        env.update(extra or {})
        return env

    def remove(self):
        shutil.rmtree(self.path, ignore_errors=True)


def defaults(binary, env):
    """The app's whole defaults domain as a dict ({} when nothing is saved)."""
    out = subprocess.run([binary, "defaults", "export", "-"], env=env, capture_output=True, timeout=30)
    if out.returncode != 0 or not out.stdout.strip():
        return {}
    return plistlib.loads(out.stdout)


def collection(binary, env, name):
    """One of the app's collections (notes, bookmarks, places, favourites) as a dict."""
    out = subprocess.run([binary, "collections", "export", name, "-"], env=env, capture_output=True, timeout=30)
    if out.returncode != 0 or not out.stdout.strip():
        return {}
    return plistlib.loads(out.stdout)


def note(binary, env, character="alice"):
    """The saved notes of one character (None when there are none)."""
    return collection(binary, env, "WLCharacterNotes").get(character)


def reading_offset(binary, env):
    """The saved place in the (only) book read in this HOME (None when none is saved)."""
    positions = collection(binary, env, "WLReadingPositions")
    for value in positions.values():
        # {offset, modified, device}, or a bare offset: a place without a stamp
        return value.get("offset") if isinstance(value, dict) else value
    return None


def state_show(binary, env):
    out = subprocess.run([binary, "state", "show"], env=env, capture_output=True, text=True, timeout=30)
    return out.stdout + out.stderr


def write_book(path, chapters=5, paragraphs=60, seed=1):
    """A plain-text book of known paragraphs, long enough that a page is far from a line."""
    import random
    rng = random.Random(seed)
    words = ("alice rabbit queen hatter tea garden door key cake bottle mouse pool caucus race "
             "lizard caterpillar mushroom pigeon duchess baby cat").split()
    with open(path, "w") as f:
        for ch in range(1, chapters + 1):
            f.write(f"CHAPTER {ch}\n\n")
            for p in range(paragraphs):
                f.write(f"Paragraph {ch}.{p}: " + " ".join(rng.choice(words) for _ in range(40)) + ".\n\n")
