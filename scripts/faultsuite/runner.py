"""The suite's command line: installs what it needs, builds the binaries when none is given, moves
into a mount namespace when it is not root, runs the faults, prints the table, and exits 0 only
when every check passed (1 when one failed, 2 when the suite cannot run, 130 when interrupted)."""
import importlib
import os
import re
import signal
import subprocess
import sys
import textwrap
import time

from . import FAMILIES
from .harness import Suite
from .system import read_text

USAGE = """usage: scripts/faults [--quick] [--list]
  --quick  the CI run: 30 crash-loop rounds, 2 s resize storms, 3 two-instance rounds, fewer server
           writes, hostile inputs launching the app for a few classes only
  --list   the faults, in the order they run, and what each does
Environment: WONDERLAND_BIN and CLOUD_HAMMER_BIN (else both are built; SCRATCH=DIR picks the build
folder); WL_FAULTS_ONLY="full_disk clock_jumps" runs only those faults; FAULTS_REPORT=FILE also
writes the rows there, tab-separated; FAULTS_SABOTAGE=1 makes the server faults' reference merge
wrong on purpose (their last check must then fail). Details of failures go to bench-out/faults/."""


def say(message):
    print(f"faults: {message}", file=sys.stderr, flush=True)


def fault(name):
    return importlib.import_module(f"{__package__}.{name}")


def main(repository, arguments):
    quick = False
    for argument in arguments:
        if argument == "--quick":
            quick = True
        elif argument == "--list":
            # Piped into `head`, the list ends quietly, as a shell tool's does.
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            for name in FAMILIES:
                summary = " ".join((fault(name).__doc__ or "").split("\n\n")[0].split())
                print(f"{name}\n{textwrap.fill(summary, 100, initial_indent='    ', subsequent_indent='    ')}")
            return 0
        elif argument in ("-h", "--help"):
            print(USAGE)
            return 0
        else:
            print(f"faults: unknown argument {argument}\n{USAGE}", file=sys.stderr)
            return 2
    problem = registry_problem()
    if problem:
        say(problem)
        return 2
    only = os.environ.get("WL_FAULTS_ONLY", "").split() or FAMILIES
    unknown = [name for name in only if name not in FAMILIES]
    if unknown:
        say(f"no fault named {' '.join(unknown)} (the faults: {' '.join(FAMILIES)})")
        return 2

    in_namespace = bool(os.environ.get("WL_FAULTS_IN_NAMESPACE"))
    if not in_namespace:
        # Before any namespace: installing needs the real root (or sudo).
        status = prepare(repository)
        if status:
            return status
    # Mounting needs root; a user without it gets a private mount namespace of its own, where it may.
    if os.getuid() != 0 and not in_namespace:
        if subprocess.run(["unshare", "-rm", "true"], stderr=subprocess.DEVNULL).returncode == 0:
            os.execvpe("unshare", ["unshare", "-rm", os.path.join(repository, "scripts", "faults"), *arguments],
                       {**os.environ, "WL_FAULTS_IN_NAMESPACE": "1"})
        say("cannot mount the test file systems: not root, and `unshare -rm` is not allowed here (user namespaces are off).")
        say("run as root (sudo scripts/faults) or where unprivileged user namespaces are enabled.")
        return 2

    signal.signal(signal.SIGTERM, interrupted)
    suite = Suite(repository, quick, os.path.realpath(os.environ["WONDERLAND_BIN"]), os.environ.get("CLOUD_HAMMER_BIN", ""))
    started = time.monotonic()
    try:
        for name in only:
            say(f"{name}…")
            run_one(suite, name)
    except KeyboardInterrupt:
        return 130
    finally:
        suite.close()
    seconds = int(time.monotonic() - started)
    report = suite.report
    print(report.table())
    print(f"faults: {len(report.rows)} checks, {report.failures} failed, in {seconds} s ({'quick' if quick else 'full'} run)", flush=True)
    if os.environ.get("FAULTS_REPORT"):
        with open(os.environ["FAULTS_REPORT"], "w") as f:
            f.write(report.tab_separated(f"{len(report.rows)} checks, {report.failures} failed, {seconds} s"))
    return 0 if report.failures == 0 else 1


def registry_problem():
    """What is wrong with FAMILIES, or "": every fault listed must be a module with SCENARIO and
    run_fault, and every module with run_fault must be listed, so a new fault never sits unrun."""
    folder = os.path.dirname(os.path.abspath(__file__))
    for name in FAMILIES:
        module = fault(name)
        if not (isinstance(getattr(module, "SCENARIO", None), str) and callable(getattr(module, "run_fault", None))):
            return f"{name}.py is in FAMILIES but has no SCENARIO or run_fault"
    for file in sorted(os.listdir(folder)):
        name = file.removesuffix(".py")
        if file.endswith(".py") and name not in FAMILIES and re.search(r"^def run_fault\(", read_text(os.path.join(folder, file)), re.M):
            return f"{file} defines a fault but is not in FAMILIES (scripts/faultsuite/__init__.py)"
    return ""


def run_one(suite, name):
    """One fault. A fault that stops on an error of its own is a failed row, never a pass, and the
    faults after it still run."""
    module = fault(name)
    started = time.monotonic()
    try:
        module.run_fault(suite)
    except KeyboardInterrupt:
        raise
    except Exception as error:
        suite.report.record(module.SCENARIO, "the fault runs to its end", False, f"{type(error).__name__}: {error}")
    say(f"{name}: {int(time.monotonic() - started)} s")


def interrupted(signum, frame):
    raise KeyboardInterrupt


def prepare(repository):
    """Installs the tools the faults use, then builds the binaries that were not given."""
    setup = subprocess.run([os.path.join(repository, "scripts", "setup"), "tmux", "faketime", "postgresql", "time"],
                           stdout=subprocess.DEVNULL, cwd=repository)
    if setup.returncode != 0:
        say("scripts/setup failed")
        return 2
    build = ["swift", "build"] + (["--scratch-path", os.environ["SCRATCH"]] if os.environ.get("SCRATCH") else [])
    for variable, product in (("WONDERLAND_BIN", "wonderland"), ("CLOUD_HAMMER_BIN", "cloud-hammer")):
        if os.environ.get(variable):
            continue
        if subprocess.run(build + ["--product", product], stdout=sys.stderr, cwd=repository).returncode != 0:
            return 1
        # The app starts the sync server's helper from beside itself.
        if product == "wonderland" and subprocess.run(build + ["--product", "wonderland-sync-server"], stdout=sys.stderr,
                                                      cwd=repository).returncode != 0:
            return 1
        folder = subprocess.run(build + ["--show-bin-path"], capture_output=True, text=True, cwd=repository).stdout.strip()
        os.environ[variable] = os.path.join(folder, product)
    return 0
