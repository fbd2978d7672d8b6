"""hostile inputs: scripts/hostile-inputs — shared-reference bombs, NaN dates, deep nesting, FIFOs,
/dev/zero, a 3 GB sparse file… in every place the app and its commands read a file (plist commands,
defaults import, defaults.plist, the archive, a peer's change file, --book): no crash, no hang,
within a memory budget, the app launches twice and its own files are kept. --quick launches the
app for a few classes only."""
import os

from .system import run

SCENARIO = "hostile inputs"


def run_fault(suite):
    command = ["python3", suite.script("hostile-inputs")] + (["--quick"] if suite.quick else [])
    status, result = run(command, env={**os.environ, "WONDERLAND_BIN": suite.binary}, timeout=None)
    suite.keep("hostile-inputs", result)
    summary = result.split("\n")[-1]
    failed = ";".join([" ".join(line.split()) for line in result.split("\n") if " FAIL " in line][:3])
    suite.report.expect(SCENARIO, "every hostile file in every place: no crash or hang, within its memory budget, nothing lost",
                        status == 0, f"{summary}: {failed} ({suite.out_label}/hostile-inputs.txt)")
