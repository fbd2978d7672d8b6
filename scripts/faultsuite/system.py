"""What every fault needs from the machine: deadlines, digests, commands with time-outs, and the
tmpfs mounts that make a full or read-only disk."""
import hashlib
import os
import subprocess
import time


def now_ms():
    return int(time.time() * 1000)


def wait_until(ms, condition, interval=0.05):
    """Polls CONDITION until it holds or MS milliseconds pass: a deadline, never a timing."""
    deadline = now_ms() + ms
    while not condition():
        if now_ms() > deadline:
            return False
        time.sleep(interval)
    return True


def digest(path):
    """The file's SHA-256, or "" when it cannot be read (so a missing file differs from any)."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return ""


def read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def read_text(path):
    return read_bytes(path).decode("utf-8", "replace")


def non_empty(path):
    """`test -s`: exists and has at least one byte."""
    try:
        return os.path.getsize(path) > 0
    except OSError:
        return False


def write_text(path, text):
    with open(path, "w") as f:
        f.write(text)


def can_write(path):
    try:
        with open(path, "a"):
            return True
    except OSError:
        return False


def count_lines(text, phrase):
    """`grep -c`: how many lines of TEXT hold PHRASE."""
    return sum(phrase in line for line in text.split("\n"))


def run(command, env=None, timeout=60, stderr=subprocess.STDOUT, cwd=None):
    """Runs COMMAND to its end (or its time-out); returns (status, output with its trailing
    newlines removed, as a shell's $(…) gives it). A time-out reads as status 124, as timeout(1)'s.
    Interrupted, the command gets SIGTERM first, so a script's own clean-up runs."""
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=stderr, stdin=subprocess.DEVNULL, cwd=cwd)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        return 124, output.decode("utf-8", "replace").rstrip("\n") + f"\n(timed out after {timeout} s)"
    except BaseException:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        raise
    return process.returncode, output.decode("utf-8", "replace").rstrip("\n")


def first_line(text, containing="", ignore_case=False):
    """The first line of TEXT holding CONTAINING (grep -m1), or ""."""
    for line in text.split("\n"):
        if (containing.lower() in line.lower()) if ignore_case else (containing in line):
            return line
    return ""


class Mounts:
    """The tmpfs mounts of a run; whatever is still mounted at the end is unmounted."""

    def __init__(self):
        self.points = []

    def tmpfs(self, path, size):
        """Mounts a tmpfs of SIZE at PATH; returns "" or mount's error."""
        os.makedirs(path, exist_ok=True)
        status, output = run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", path])
        if status != 0:
            return output or f"mount exited {status}"
        self.points.append(path)
        return ""

    @staticmethod
    def remount(mode, path):
        """The 4 MB tmpfs at PATH read-only ("ro") or writable again ("rw"). The options are
        given again because inside a user namespace a bare `remount,ro` is refused."""
        return run(["mount", "-o", f"remount,{mode},size=4m,mode=0755", "tmpfs", path])[0] == 0

    def unmount(self, path):
        if run(["mountpoint", "-q", path])[0] == 0 and run(["umount", path])[0] != 0:
            run(["umount", "-l", path])
        if path in self.points:
            self.points.remove(path)

    def unmount_all(self):
        for path in list(self.points):
            self.unmount(path)
