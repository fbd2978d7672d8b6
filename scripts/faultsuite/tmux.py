"""The app's terminal: a private tmux server, its panes, and what a pane shows."""
import subprocess
import time

from .system import now_ms, wait_until


class Tmux:
    def __init__(self, socket_name):
        self.socket_name = socket_name

    def __call__(self, *arguments):
        """One tmux command; returns (status, stdout)."""
        result = subprocess.run(["tmux", "-L", self.socket_name, *arguments], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        return result.returncode, result.stdout.decode("utf-8", "replace")

    def kill_server(self):
        self("kill-server")

    def new_window(self, session, columns, rows):
        """A session whose pane 0 is SESSION:0.0, its size fixed so a resize means what it says.
        Map panes are 120 wide so the whole status line shows, and a frame still "loading the
        1:10m map…" is never taken as final."""
        if self("-f", "/dev/null", "new-session", "-d", "-s", session, "-x", str(columns), "-y", str(rows), "sleep 1000000")[0] != 0:
            self("new-session", "-d", "-s", session, "-x", str(columns), "-y", str(rows), "sleep 1000000")
        self("set-option", "-g", "remain-on-exit", "on")
        self("set-option", "-g", "window-size", "manual")

    def kill_session(self, session):
        self("kill-session", "-t", session)

    def respawn(self, pane, script):
        self("respawn-pane", "-k", "-t", pane, script)

    def screen(self, pane):
        """The pane's text, trailing blanks of each line and trailing empty lines removed."""
        status, output = self("capture-pane", "-p", "-t", pane)
        if status != 0:
            return ""
        return "\n".join(line.rstrip(" ") for line in output.split("\n")).rstrip("\n")

    def value(self, pane, format_string):
        return self("display-message", "-p", "-t", pane, format_string)[1].strip()

    def rows(self, pane):
        try:
            return int(self.value(pane, "#{pane_height}"))
        except ValueError:
            return 0

    @staticmethod
    def complete(lines, rows):
        """A whole frame: the tab bar at the top and something on the last row."""
        return bool(lines) and "1 Map" in lines[0] and rows > 0 and len(lines) >= rows and lines[rows - 1] != ""

    def frame_complete(self, pane):
        rows = self.rows(pane)
        return self.complete(self.screen(pane).split("\n"), rows)

    def shows(self, pane, text):
        return text.lower() in self.screen(pane).lower()

    def stable(self, pane, timeout_ms=20000):
        """The pane's frame once it is complete and stays the same for a second (map data loads
        in the background, and its status may be cut off at the line's end); after TIMEOUT_MS,
        whatever it shows."""
        previous, same, deadline = "", 0, now_ms() + timeout_ms
        while now_ms() < deadline:
            rows = self.rows(pane)
            current = self.screen(pane)
            # A frame still loading map data (or a book) is not the one to compare.
            if self.complete(current.split("\n"), rows) and "loading" not in current.lower():
                if previous and current == previous:
                    same += 1
                    if same >= 5:
                        return current
                else:
                    same = 0
                previous = current
            else:
                previous, same = "", 0
            time.sleep(0.2)
        return self.screen(pane)

    def shown_during(self, pane, text, looks=15):
        """Whether TEXT appears on the pane at any of LOOKS looks 0.2 s apart (three seconds)."""
        seen = False
        for _ in range(looks):
            seen = self.shows(pane, text) or seen
            time.sleep(0.2)
        return seen

    def last_lines(self, pane, count=3):
        """The last COUNT non-empty lines of the pane on one line: a failure's detail."""
        return " ".join([line for line in self.screen(pane).split("\n") if line][-count:]) + " "

    def dead(self, pane):
        return self.value(pane, "#{pane_dead}") == "1"

    def app_pid(self, pane):
        """The app: the child of the pane's launch script."""
        shell = self.value(pane, "#{pane_pid}")
        try:
            with open(f"/proc/{shell}/task/{shell}/children") as f:
                children = f.read().split()
        except OSError:
            return None
        return int(children[0]) if children else None

    def keys(self, pane, *keys):
        """Presses each key in turn, as a person would, 50 ms apart."""
        for key in keys:
            self("send-keys", "-t", pane, key)
            time.sleep(0.05)

    def dismiss_alerts(self, pane, ms=5000):
        """Esc, 0.1 s apart, until no alert shows (at most MS): the keys after it then reach
        the screen behind. Waiting for the alerts to go matters because an Esc and the next key
        read together are Alt with that key, in this app as in any terminal program, and a loaded
        machine can leave the app unscheduled for longer than the 50 ms between keys; several Escs
        read together are each an Esc. One Esc more than there were alerts may still be unread
        when the last alert goes, hence the 0.2 s before returning."""
        deadline = now_ms() + ms
        pressed = False
        while "[ OK ]" in self.screen(pane):
            if now_ms() > deadline:
                return False
            self("send-keys", "-t", pane, "Escape")
            pressed = True
            time.sleep(0.1)
        if pressed:
            time.sleep(0.2)
        return True

    def send(self, pane, *arguments):
        self("send-keys", "-t", pane, *arguments)

    def wait_frame(self, pane, ms=15000):
        return wait_until(ms, lambda: self.frame_complete(pane))


def rss_kb(pid):
    """The process's resident size in kB, or 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0
