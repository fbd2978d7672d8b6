"""The fault suite: runs the real binary in a private tmux server through every fault below and
checks that none loses data or leaves an unreadable file. `scripts/faults` is its entry point.

Adding a fault
--------------
Write one module in this folder, named after the fault (`disk_errors.py`), holding

    SCENARIO = "disk errors"          # the first column of its rows in the table
    def run_fault(suite): ...         # makes the fault, then records each check

and add its name to FAMILIES below: that line is all the suite needs to run it, in that order,
and to accept it in WL_FAULTS_ONLY. A fault gets from `suite` (harness.Suite): `suite.place(name)`,
a private HOME with its XDG folders, the app's command line (`place.wl`) and launches in a pane
(`place.launch`, `place.quit`); `suite.tmux`, the pane's frames (`stable`, `shows`, `keys`);
`suite.mounts`, tmpfs mounts undone at the end; and `suite.report`, where `expect(scenario,
check, outcome, why)` records one row. End with `checks.files_intact(suite, SCENARIO, place)`:
the archive and defaults.plist read, no temporaries left, nothing moved aside. A check's name
says what must hold, in words a reader of the table understands; a failure's detail says what was
seen instead. `suite.quick` is true under --quick (the CI run): make the fault smaller, never
skip a check. Then add its checks to FAULTS.md, the list of every check of every fault.
"""

# The faults, in the order they run. WL_FAULTS_ONLY="full_disk clock_jumps" runs only those.
FAMILIES = [
    "crash_loop",
    "full_disk",
    "read_only_state",
    "read_only_config",
    "clock_jumps",
    "resize_storm",
    "two_instances",
    "server_hang",
    "server_restart",
    "hostile_inputs",
]
