"""read-only state: the state folder remounted read-only after a good save. The app restores, says
once that it cannot save (an alert, one line on stderr), and the archive is untouched; writable
again, the saved place comes back."""
import os

from .checks import files_intact, same_frame
from .mounted import first_launch_on_tmpfs, relaunch_writable
from .system import can_write, count_lines, digest, non_empty, wait_until

SCENARIO = "read-only state"


def run_fault(suite):
    s, report, tmux = SCENARIO, suite.report, suite.tmux
    started = first_launch_on_tmpfs(suite, s, "rostate", "ro-state", "4m", "mount a tmpfs", lambda mount: {"state": mount})
    if not started:
        return
    fs, place, pane = started
    tmux.keys(pane, "+", "+", "+", "Down", "m")
    wait_until(10000, lambda: non_empty(place.archive))
    wait_until(10000, lambda: non_empty(place.defaults))
    before = tmux.stable(pane)
    place.quit(tmux, pane, "first")
    archive_sum = digest(place.archive)
    if not suite.mounts.remount("ro", fs):
        report.record(s, "remount the state folder read-only", False)
        return
    report.expect(s, "the state folder is read-only (a write fails)", not can_write(os.path.join(place.state_dir, "probe")), "touch worked")

    place.launch(tmux, pane, "ro")
    restored = tmux.stable(pane)
    report.expect(s, "the app runs and restores the saved place", same_frame(suite, "rostate-restored", before, restored))
    tmux.keys(pane, "-", "Left")
    report.expect(s, "the app says once that it cannot save (alert)", wait_until(10000, lambda: tmux.shows(pane, "could not save your place")),
                  lambda: f"screen: {tmux.last_lines(pane)}")
    tmux.keys(pane, "Escape")
    tmux.keys(pane, "+", "Right", "Up")
    # Idle saves keep failing now; none of them may bring the alert back.
    report.expect(s, "later failed saves do not repeat the alert", not tmux.shown_during(pane, "could not save your place"),
                  "the alert came back")
    place.quit(tmux, pane, "ro")
    said = place.stderr_of("ro")
    report.expect(s, "on exit, stderr says once the place was not saved", count_lines(said, "could not save your place") == 1, f"stderr: {said}")
    report.expect(s, "the app exits normally", place.status_of("ro") == "0")
    report.expect(s, "the archive is byte-identical", digest(place.archive) == archive_sum, f"{digest(place.archive)} was {archive_sum}")
    files_intact(suite, s, place)

    relaunch_writable(suite, s, "rostate", fs, place, before, "writable again: the next launch shows the saved place")
