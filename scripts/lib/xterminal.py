"""Real X terminals on a private Xvfb display, typed into with xdotool.

One terminal at a time runs on the display, at its top-left corner, with the pointer over it:
with no window manager the X server's focus follows the pointer, so xdotool's XTEST key and
button events reach that terminal exactly as a keyboard's would (synthetic events sent to a
window are refused by xterm's default allowSendEvents, which is why no --window is used).
"""
import os
import signal
import subprocess
import tempfile
import time

# How each terminal runs a command at 100x30 with its stock settings (urxvt without its scroll
# bar). `cmd` is a list.
TERMINALS = {
    "xterm": lambda cmd: ["xterm", "-geometry", "100x30+0+0", "-e"] + cmd,
    "st": lambda cmd: ["st", "-g", "100x30+0+0", "-e"] + cmd,
    # +sb: no scroll bar, so the window is all cells and a click lands on the cell meant.
    "urxvt": lambda cmd: ["urxvt", "+sb", "-geometry", "100x30+0+0", "-e"] + cmd,
    "kitty": lambda cmd: ["kitty", "-o", "remember_window_size=no", "-o", "initial_window_width=100c",
                          "-o", "initial_window_height=30c"] + cmd,
    "alacritty": lambda cmd: ["alacritty", "-o", "window.dimensions.columns=100",
                              "-o", "window.dimensions.lines=30", "-e"] + cmd,
}
EXECUTABLE = {"xterm": "xterm", "st": "st", "urxvt": "urxvt", "kitty": "kitty", "alacritty": "alacritty"}
SCREEN = (1280, 1024)
# kitty and alacritty draw with OpenGL; under Xvfb only Mesa's software renderer is there.
GL_ENV = {"LIBGL_ALWAYS_SOFTWARE": "1"}


class Display:
    """An Xvfb server on a display number it picks itself (-displayfd), ended by its pid."""

    def __init__(self):
        read, write = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
                                      "-nolisten", "tcp"], pass_fds=(write,),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        number = b""
        deadline = time.time() + 15
        while not number.endswith(b"\n") and time.time() < deadline:
            chunk = os.read(read, 16)
            if not chunk:
                break
            number += chunk
        os.close(read)
        if not number.strip():
            self.stop()
            raise RuntimeError("Xvfb did not start")
        self.name = ":" + number.decode().strip()

    def xdotool(self, *args):
        subprocess.run(["xdotool"] + [str(a) for a in args], env={"DISPLAY": self.name, "PATH": os.environ["PATH"]},
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20)

    def keys(self, *names, delay_ms=60):
        """Presses keys one after the other (xdotool names: alt+f, Delete, F1, eacute)."""
        self.pointer_home()
        self.xdotool("key", "--delay", delay_ms, *names)

    def type(self, text, delay_ms=40):
        self.pointer_home()
        self.xdotool("type", "--delay", delay_ms, text)

    def wheel(self, down=True, notches=1):
        self.pointer_home()
        self.xdotool("click", "--repeat", notches, "--delay", 80, 5 if down else 4)

    def click_cell(self, column, row, columns=100, rows=30):
        """A left click on a character cell: the largest visible window smaller than the screen
        (the one terminal on this display), divided into the terminal's columns and rows."""
        env = {"DISPLAY": self.name, "PATH": os.environ["PATH"]}
        ids = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", ""], env=env,
                             capture_output=True, text=True).stdout.split()
        best = None
        for window in ids:
            shape = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window], env=env,
                                   capture_output=True, text=True).stdout
            g = dict(l.split("=", 1) for l in shape.split() if "=" in l)
            if "WIDTH" not in g or (int(g["WIDTH"]), int(g["HEIGHT"])) == SCREEN:
                continue  # a window as big as the screen is not a terminal at 100x30
            if best is None or int(g["WIDTH"]) * int(g["HEIGHT"]) > best[1] * best[2]:
                best = (window, int(g["WIDTH"]), int(g["HEIGHT"]))
        if best is None:
            return
        window, width, height = best
        x, y = int((column + 0.5) * width / columns), int((row + 0.5) * height / rows)
        self.xdotool("mousemove", "--window", window, x, y)
        self.xdotool("click", 1)

    def pointer_home(self):
        self.xdotool("mousemove", 300, 200)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Terminal:
    """One terminal running `command` under `env` (which must carry HOME and the XDG folders).

    The command is wrapped so the app's own pid is written to a file: readiness and idleness are
    read from /proc of that pid, not guessed from the terminal.
    """

    def __init__(self, display, kind, command, env, log_path):
        self.pid_file = tempfile.mktemp(prefix="wl-app-pid-")
        wrapped = ["sh", "-c", 'echo $$ > "$0"; exec "$@"', self.pid_file] + command
        full_env = dict(env, DISPLAY=display.name, **(GL_ENV if kind in ("kitty", "alacritty") else {}))
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen(TERMINALS[kind](wrapped), env=full_env, stdout=self.log, stderr=self.log,
                                     start_new_session=True)
        self.app_pid = None
        self.why = ""

    def wait_app(self, timeout=30):
        """Waits for the app to start and draw (its CPU use settles); False when it never did."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                self.why = f"the terminal ended with status {self.proc.returncode}"
                return False
            try:
                with open(self.pid_file) as f:
                    self.app_pid = int(f.read().strip())
                break
            except (OSError, ValueError):
                time.sleep(0.1)
        if self.app_pid is None:
            self.why = "the app was not started in time"
            return False
        time.sleep(0.5)
        if not self.settle(timeout=max(1, deadline - time.time())):
            self.why = "the app ended before its first frame settled"
            return False
        return True

    def cpu_ticks(self):
        try:
            with open(f"/proc/{self.app_pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            return None

    def settle(self, quiet=0.3, timeout=10):
        """Waits until the app has used no CPU for `quiet` seconds (it has handled what it got)."""
        deadline = time.time() + timeout
        last = self.cpu_ticks()
        while time.time() < deadline:
            time.sleep(quiet)
            now = self.cpu_ticks()
            if now is None:
                return False
            if now == last:
                return True
            last = now
        return True

    def app_alive(self):
        return self.app_pid is not None and os.path.exists(f"/proc/{self.app_pid}")

    def wait_exit(self, timeout=10):
        """Waits for the app (and so the terminal) to end; True when it did."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if not self.app_alive() and self.proc.poll() is not None:
                return True
            time.sleep(0.1)
        return False

    def close(self):
        if self.app_alive():
            os.kill(self.app_pid, signal.SIGTERM)
            # It saves on SIGTERM: let it finish before anyone removes its HOME.
            deadline = time.time() + 10
            while self.app_alive() and time.time() < deadline:
                time.sleep(0.05)
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.close()
        try:
            os.unlink(self.pid_file)
        except OSError:
            pass
