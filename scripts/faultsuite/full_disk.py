"""full disk: the state and config folders on a small tmpfs that is then filled. The saves fail with
a message (an alert, and a line on stderr at exit), the previous archive and defaults stay
byte-identical, and with room again the saved place comes back and the next save works."""
import os
import shutil

from .checks import files_intact, same_frame
from .mounted import first_launch_on_tmpfs
from .system import digest, non_empty, read_text, run, wait_until

SCENARIO = "full disk"


def run_fault(suite):
    s, report, tmux = SCENARIO, suite.report, suite.tmux
    started = first_launch_on_tmpfs(suite, s, "full", "full-fs", "2m", "mount a 2 MB tmpfs",
                                    lambda mount: {"state": os.path.join(mount, "state"), "config": os.path.join(mount, "config")})
    if not started:
        return
    fs, place, pane = started
    tmux.keys(pane, "+", "+", "Right", "m")
    wait_until(10000, lambda: non_empty(place.archive))
    wait_until(10000, lambda: non_empty(place.defaults))
    before = tmux.stable(pane)
    place.quit(tmux, pane, "first")
    report.expect(s, "with room: the archive and defaults are saved, no error",
                  non_empty(place.archive) and non_empty(place.defaults) and place.status_of("first") == "0" and place.quiet("first"),
                  lambda: f"status {place.status_of('first')}, stderr: {place.stderr_of('first')}")
    archive_sum, defaults_sum = digest(place.archive), digest(place.defaults)

    run(["dd", "if=/dev/zero", f"of={os.path.join(fs, 'filler')}", "bs=4096"])
    free = shutil.disk_usage(fs).free
    report.expect(s, "the disk is full (dd until ENOSPC)", free == 0, f"{free} bytes free")

    place.launch(tmux, pane, "full")
    restored = tmux.stable(pane)
    report.expect(s, "a launch on the full disk restores the saved place", same_frame(suite, "full-restored", before, restored))
    tmux.keys(pane, "+", "m", "Left")
    report.expect(s, "the app says the save failed (alert)", wait_until(10000, lambda: tmux.shows(pane, "could not save your place")),
                  lambda: f"screen: {tmux.last_lines(pane)}")
    tmux.keys(pane, "Escape")
    report.expect(s, "the app says the settings could not be saved (alert)", wait_until(10000, lambda: tmux.shows(pane, "could not be saved")),
                  lambda: f"screen: {tmux.last_lines(pane)}")
    # Each failed retry of the settings adds an alert, about one a second: the quit follows
    # the moment none shows.
    tmux.dismiss_alerts(pane)
    place.quit(tmux, pane, "full")
    said = place.stderr_of("full")
    report.expect(s, "on exit, stderr says the place was not saved", "could not save your place" in said, f"stderr: {said}")
    report.expect(s, "on exit, stderr says the settings were not saved", "could not save settings" in said, f"stderr: {said}")
    report.expect(s, "the previous archive is byte-identical", digest(place.archive) == archive_sum,
                  f"{digest(place.archive)} was {archive_sum}")
    report.expect(s, "the previous defaults.plist is byte-identical", digest(place.defaults) == defaults_sum,
                  f"{digest(place.defaults)} was {defaults_sum}")
    files_intact(suite, s, place)

    os.remove(os.path.join(fs, "filler"))
    place.launch(tmux, pane, "after")
    after = tmux.stable(pane)
    report.expect(s, "with room again, the next launch shows the saved place", same_frame(suite, "full-after", before, after))
    place.quit(tmux, pane, "after")
    report.expect(s, "with room again, the app saves without error", place.quiet("after") and digest(place.archive) != archive_sum,
                  f"stderr: {read_text(place.log('after', '.err'))}")
    tmux.kill_session("full")
    suite.mounts.unmount(fs)
