"""crash loop: scripts/crash-loop — random keys, kill -9 at a random moment, relaunch; every relaunch
must draw, and the archive and defaults.plist must stay readable with nothing moved aside."""
import os

from .system import run

SCENARIO = "crash loop"


def run_fault(suite):
    rounds = 30 if suite.quick else 500
    env = {**os.environ, "WONDERLAND_BIN": suite.binary, "CRASH_LOOP_STATE": suite.work}
    errors_path = os.path.join(suite.out, "crash-loop.err")
    with open(errors_path, "w") as errors:
        status, result = run([suite.script("crash-loop"), str(rounds)], env=env, stderr=errors, timeout=None)
    suite.keep("crash-loop", result)
    summary = result.split("\n")[-1]
    check = f"{rounds} rounds of kill -9: every relaunch starts, archive and defaults readable"
    if status == 0 and "failures 0" in summary:
        suite.report.record(SCENARIO, check, True, summary.removeprefix("crash-loop: "))
    else:
        with open(errors_path, errors="replace") as f:
            last = " ".join(f.read().rstrip("\n").split("\n")[-3:])
        suite.report.record(SCENARIO, check, False, f"{summary} {last}")
