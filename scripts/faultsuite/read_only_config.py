"""read-only config: the config folder remounted read-only after a good save. The settings still load
(the app and `defaults read`), the app says once that they cannot be saved, and defaults.plist is
untouched; writable again, the settings come back."""
from .checks import files_intact, same_frame
from .mounted import first_launch_on_tmpfs, relaunch_writable
from .system import count_lines, digest, read_bytes, wait_until

SCENARIO = "read-only config"


def run_fault(suite):
    s, report, tmux = SCENARIO, suite.report, suite.tmux
    started = first_launch_on_tmpfs(suite, s, "roconfig", "ro-config", "4m", "mount a tmpfs", lambda mount: {"config": mount})
    if not started:
        return
    fs, place, pane = started
    tmux.keys(pane, "m", "t")
    wait_until(10000, lambda: b"HPFollowHeading" in read_bytes(place.defaults))
    before = tmux.stable(pane)
    type_before = place.wl("defaults", "read", "HPMapType")[1]
    place.quit(tmux, pane, "first")
    defaults_sum = digest(place.defaults)
    if not suite.mounts.remount("ro", fs):
        report.record(s, "remount the config folder read-only", False)
        return

    type_now = place.wl("defaults", "read", "HPMapType")[1]
    report.expect(s, "`wonderland defaults read` still reads the settings", type_now == type_before,
                  f"{' '.join(type_now.split(chr(10))[:2])} (was {type_before})")
    place.launch(tmux, pane, "ro")
    restored = tmux.stable(pane)
    report.expect(s, "the app runs with the saved settings and place", same_frame(suite, "roconfig-restored", before, restored))
    tmux.keys(pane, "m")
    report.expect(s, "the app says once that the settings cannot be saved (alert)", wait_until(10000, lambda: tmux.shows(pane, "could not be saved")),
                  lambda: f"screen: {tmux.last_lines(pane)}")
    tmux.keys(pane, "Escape")
    tmux.keys(pane, "t", "m")
    report.expect(s, "later failed writes do not repeat the alert", not tmux.shown_during(pane, "could not be saved"), "the alert came back")
    place.quit(tmux, pane, "ro")
    said = place.stderr_of("ro")
    report.expect(s, "on exit, stderr says once the settings were not saved", count_lines(said, "could not save settings") == 1, f"stderr: {said}")
    report.expect(s, "the app exits normally", place.status_of("ro") == "0")
    report.expect(s, "defaults.plist is byte-identical", digest(place.defaults) == defaults_sum, f"{digest(place.defaults)} was {defaults_sum}")
    files_intact(suite, s, place)

    relaunch_writable(suite, s, "roconfig", fs, place, before, "writable again: the next launch has the saved settings")
