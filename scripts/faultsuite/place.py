"""One scenario's private HOME: its XDG folders, the app's command line and launches on them, and
the checks on the files the app keeps there."""
import fnmatch
import os
import shlex

from .system import non_empty, read_text, run, wait_until

# Launches name a place, so the status line does not depend on gpsd.
LAUNCH_LOCATION = "48.8566,2.3522"


class Place:
    def __init__(self, binary, root, name, state=None, config=None, keep=None):
        self.binary = binary
        self.name = name
        # Where a failure's evidence goes (the suite's output folder): keep(name, text).
        self.keep = keep or (lambda name, text: None)
        self.home = os.path.join(root, name, "home")
        self.state = state or os.path.join(root, name, "state")
        self.config = config or os.path.join(root, name, "config")
        self.data = os.path.join(root, name, "data")
        self.logs = os.path.join(root, name, "logs")
        self.state_dir = os.path.join(self.state, "wonderland")
        self.config_dir = os.path.join(self.config, "wonderland")
        self.archive = os.path.join(self.state_dir, "restoration.archive")
        self.defaults = os.path.join(self.config_dir, "defaults.plist")
        for folder in (self.home, self.state, self.config, self.data, self.logs):
            os.makedirs(folder, exist_ok=True)

    # ------------------------------------------------------------ the app

    def environment(self, extra=None):
        """The app's whole environment: this place's folders and nothing else of ours."""
        return {"PATH": "/usr/bin:/bin", "HOME": self.home, "XDG_STATE_HOME": self.state,
                "XDG_CONFIG_HOME": self.config, "XDG_DATA_HOME": self.data, "TERM": "tmux-256color",
                "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", **(extra or {})}

    def wl(self, *arguments, env=None):
        """The app's command line on this place; returns (status, stdout and stderr)."""
        return run([self.binary, *arguments], env=self.environment(env))

    def launch(self, tmux, pane, tag, *arguments, env=None, location=LAUNCH_LOCATION):
        """Runs the app in PANE (respawned), its stderr to logs/TAG.err and its exit status to
        logs/TAG.status, through a small script so the pane's shell records both."""
        for suffix in (".err", ".status"):
            if os.path.exists(self.log(tag, suffix)):
                os.remove(self.log(tag, suffix))
        words = ["env", "-i", *(f"{k}={v}" for k, v in self.environment(env).items()), self.binary]
        if location:
            words += ["--location", location]
        words += arguments
        script = self.log(tag, ".sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\n")
            f.write(" ".join(shlex.quote(word) for word in words) + f" 2>{shlex.quote(self.log(tag, '.err'))}\n")
            f.write(f"echo $? >{shlex.quote(self.log(tag, '.status'))}\n")
        os.chmod(script, 0o755)
        tmux.respawn(pane, script)

    def quit(self, tmux, pane, tag):
        """q, then waits for the app to be gone and its status written. When it is not, the
        screen it left is kept (PLACE-TAG-quit.txt in the output folder), for the check that fails
        next."""
        tmux.send(pane, "q")
        if wait_until(10000, lambda: non_empty(self.log(tag, ".status"))):
            return True
        self.keep(f"{self.name}-{tag}-quit", tmux.screen(pane))
        return False

    def log(self, tag, suffix):
        return os.path.join(self.logs, tag + suffix)

    def status_of(self, tag):
        return read_text(self.log(tag, ".status")).strip()

    def stderr_of(self, tag):
        return read_text(self.log(tag, ".err")).rstrip("\n")

    def quiet(self, tag):
        """Nothing on stderr (`test ! -s`)."""
        return not non_empty(self.log(tag, ".err"))

    # ------------------------------------------------------------ its files

    def folders(self):
        return (self.state_dir, self.config_dir)

    def named(self, pattern):
        """The names in the state and config folders matching PATTERN as find's -name matches
        (a leading dot is not special)."""
        names = []
        for folder in self.folders():
            try:
                names += sorted(name for name in os.listdir(folder) if fnmatch.fnmatchcase(name, pattern))
            except OSError:
                pass
        return names

    def temporaries(self):
        """What an atomic write leaves when it is cut short."""
        return self.named(".*.tmp-*")

    def moved_aside(self):
        """What the app moved aside as unreadable: it never deletes its own files."""
        return self.named("*.corrupt-*")

    def lints(self, path):
        if not os.path.exists(path):
            return True, ""
        status, output = run([self.binary, "plist", "lint", path])
        return status == 0, output.split("\n")[0]

    def archive_readable(self):
        if not os.path.exists(self.archive):
            return False, "no archive"
        linted, why = self.lints(self.archive)
        if not linted:
            return False, why
        status, shown = self.wl("state", "show")
        unreadable = next((line for line in shown.split("\n") if "unreadable" in line), "")
        if status != 0:
            return False, f"state show failed: {unreadable or shown[:200]}"
        if unreadable:
            return False, unreadable
        return True, ""

    def defaults_readable(self):
        if not os.path.exists(self.defaults):
            return False, "no defaults.plist"
        return self.lints(self.defaults)
