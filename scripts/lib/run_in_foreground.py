"""Runs a command as a shell would run a foreground job, and writes how it ended.

usage: run_in_foreground.py PID_FILE STATUS_FILE COMMAND [ARG...]

The command gets its own process group, made the terminal's foreground group, so Ctrl-Z stops
it as under an interactive shell (a process group with no parent in the session ignores the
terminal's stop signals) and SIGCONT is `fg`. Its pid goes to PID_FILE; when it ends,
STATUS_FILE gets "exit N" or "signal N" (tmux's own record of a dead pane is not always there).
"""
import os
import signal
import sys


def main():
    pid_file, status_file, command = sys.argv[1], sys.argv[2], sys.argv[3:]
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        try:
            os.tcsetpgrp(0, os.getpgrp())
        except OSError:
            pass
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass  # the child did it first
    with open(pid_file + ".tmp", "w") as f:
        f.write(str(pid))
    os.rename(pid_file + ".tmp", pid_file)
    while True:
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) or os.WIFSIGNALED(status):
            break
    text = f"exit {os.WEXITSTATUS(status)}" if os.WIFEXITED(status) else f"signal {os.WTERMSIG(status)}"
    with open(status_file + ".tmp", "w") as f:
        f.write(text)
    os.rename(status_file + ".tmp", status_file)


if __name__ == "__main__":
    main()
