"""Timing a program from exec to its complete first frame, in a pseudo-terminal, with no wrapper.

The child of a fork reads CLOCK_MONOTONIC just before execve and sends it up a pipe, so the
figure starts at exec (the fork is not in it). The parent reads the terminal side of the pty
and stamps every chunk as it arrives. The frame is complete when every expected piece of text
has been drawn and the screen then stays quiet: the time is that of the last byte before the
quiet, so a program that first draws a placeholder and the real content later is timed to the
real content. After the quiet the program is killed (SIGKILL: no save on exit, nothing timed
after the frame changes what the next run sees).
"""
import fcntl
import os
import select
import signal
import struct
import termios
import time

CLOCK = time.CLOCK_MONOTONIC


class Run:
    def __init__(self, first_frame_ms, output, exited):
        self.first_frame_ms = first_frame_ms
        self.output = output
        self.exited = exited

    def text(self):
        return self.output.decode("utf-8", "replace")


def _spawn(argv, env, columns, rows):
    """Fork onto a new pty; returns (pid, master fd, exec time in ns)."""
    read_end, write_end = os.pipe()
    pid, master = os.forkpty()
    if pid == 0:
        try:
            os.close(read_end)
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
            os.write(write_end, struct.pack("q", time.clock_gettime_ns(CLOCK)))
            os.close(write_end)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    os.close(write_end)
    stamp = b""
    while len(stamp) < 8:
        chunk = os.read(read_end, 8 - len(stamp))
        if not chunk:
            break
        stamp += chunk
    os.close(read_end)
    if len(stamp) < 8:
        raise RuntimeError(f"{argv[0]}: the child died before exec")
    return pid, master, struct.unpack("q", stamp)[0]


def first_frame(argv, env, expect=(), quiet_ms=250, timeout_s=20, columns=80, rows=24,
                matches=lambda piece, output: piece in output, terminate=False):
    """Exec to the last byte of the first frame that shows every piece of `expect` (each
    tested by `matches`, by default a bytes substring), followed by `quiet_ms` of silence.
    Raises when the frame never completes. `terminate` ends the program with SIGTERM and
    waits for it (it saves its place) instead of killing it."""
    pid, master, started = _spawn(argv, env, columns, rows)
    output = bytearray()
    last_byte = None
    deadline = time.clock_gettime_ns(CLOCK) + int(timeout_s * 1e9)
    exited = False
    try:
        while True:
            now = time.clock_gettime_ns(CLOCK)
            complete = last_byte is not None and all(matches(piece, output) for piece in expect)
            if complete and now - last_byte >= quiet_ms * 1e6:
                break
            if now > deadline:
                missing = [repr(p) for p in expect if not matches(p, output)]
                raise RuntimeError(f"{os.path.basename(argv[0])}: no complete frame in {timeout_s} s; missing {missing}")
            wait = (quiet_ms * 1e6 - (now - last_byte)) / 1e9 if complete else 0.05
            ready, _, _ = select.select([master], [], [], max(wait, 0.001))
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed its terminal
                chunk = b""
            stamp = time.clock_gettime_ns(CLOCK)
            if not chunk:
                exited = True
                if complete:
                    break
                raise RuntimeError(f"{os.path.basename(argv[0])} exited before a complete frame: {bytes(output[-400:])!r}")
            output += chunk
            last_byte = stamp
    finally:
        try:
            os.kill(pid, signal.SIGTERM if terminate else signal.SIGKILL)
        except ProcessLookupError:
            pass
        if terminate:
            # The pty must be drained while the program restores the terminal, or it blocks.
            while True:
                try:
                    if not os.read(master, 65536):
                        break
                except OSError:
                    break
        os.waitpid(pid, 0)
        os.close(master)
    return Run((last_byte - started) / 1e6, bytes(output), exited)


def to_exit(argv, env, timeout_s=20, columns=80, rows=24):
    """Exec to exit, output to a pty (a command typed at a terminal); returns (ms, output).
    The end is when the pty reports its last writer gone (the read fails), then the exit
    status is collected."""
    pid, master, started = _spawn(argv, env, columns, rows)
    output = bytearray()
    deadline = time.monotonic() + timeout_s
    ended = None
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1)
        if not ready:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            ended = time.clock_gettime_ns(CLOCK)
            break
        output += chunk
    if ended is None:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(master)
    if ended is None:
        raise RuntimeError(f"{argv} did not exit in {timeout_s} s")
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        raise RuntimeError(f"{argv} failed: status {status}, {bytes(output)!r}")
    return (ended - started) / 1e6, bytes(output)


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
