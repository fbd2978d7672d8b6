"""clock jumps: libfaketime moves the wall clock. Launches far in the past and the future each
restore the previous one's place; during one run the clock jumps 20 years back, then to 2090, and
idle saves and settings writes still follow every change; under a frozen clock, two corrupt files
moved aside in one second keep distinct names and their bytes."""
import datetime
import os
import subprocess
import time

from .checks import files_intact, same_frame
from .system import digest, first_line, non_empty, read_bytes, read_text, run, wait_until, write_text

SCENARIO = "clock jumps"
FROZEN_STAMP = ".corrupt-20010203T040506Z"


def run_fault(suite):
    s, report, tmux = SCENARIO, suite.report, suite.tmux
    pane = "clock:0.0"
    if not suite.faketime:
        report.record(s, "libfaketime installed", False, "no /usr/lib/*/faketime/libfaketime.so.1 (scripts/setup faketime)")
        return
    place = suite.place("clock")
    # Wide enough for the whole status line, so "loading the 1:10m map…" is never cut off.
    tmux.new_window("clock", 120, 30)
    # Only the wall clock is faked: CLOCK_MONOTONIC never jumps on a real machine.
    fake = {"LD_PRELOAD": suite.faketime, "FAKETIME_DONT_FAKE_MONOTONIC": "1"}
    # Under libfaketime's preload, Swift's CommandLine.arguments comes out empty, so these
    # launches take nothing from the command line: the location comes from the Manual Location
    # setting instead of --location.
    place.wl("defaults", "write", "HPManualLocation", "48.8566,2.3522")

    def launch(tag, env=None):
        place.launch(tmux, pane, tag, env=env, location="")

    def quit(tag):
        place.quit(tmux, pane, tag)

    launch("past", {**fake, "FAKETIME": "@1999-12-31 23:59:30"})
    if not tmux.wait_frame(pane):
        report.record(s, "a launch in 1999 draws", False, place.stderr_of("past"))
        return
    tmux.keys(pane, "+", "+", "Right", "m")
    wait_until(10000, lambda: non_empty(place.archive))
    previous = tmux.stable(pane)
    quit("past")
    shown = place.wl("state", "show")[1]
    report.expect(s, "saved in 1999: the archive says 1999-12-31", "1999-12-31" in shown, first_line(shown, "saved"))

    launch("future", {**fake, "FAKETIME": "@2099-06-01 12:00:00"})
    frame = tmux.stable(pane)
    report.expect(s, "in 2099, the 1999 archive restores", same_frame(suite, "clock-future", previous, frame))
    tmux.keys(pane, "+", "Down", "t")
    wait_until(10000, lambda: b"HPFollowHeading" in read_bytes(place.defaults))
    previous = tmux.stable(pane)
    quit("future")
    report.expect(s, "in 2099, saves without error", place.status_of("future") == "0" and place.quiet("future"),
                  f"status {place.status_of('future')}: {place.stderr_of('future')}")

    launch("back", {**fake, "FAKETIME": "@1971-01-01 00:00:00"})
    frame = tmux.stable(pane)
    report.expect(s, "back in 1971, the archive from 2099 restores", same_frame(suite, "clock-back", previous, frame))
    tmux.keys(pane, "-", "Up")
    previous = tmux.stable(pane)
    quit("back")

    launch("real")
    frame = tmux.stable(pane)
    report.expect(s, "on the real clock again, the 1971 save restores", same_frame(suite, "clock-real", previous, frame))
    quit("real")
    files_intact(suite, s, place)

    # During one run: the clock jumps 20 years back, then to 2090; idle saves and settings writes
    # still follow every change.
    stamp = os.path.join(suite.work, "clock", "faketime")
    write_text(stamp, "+0\n")
    launch("jumping", {**fake, "FAKETIME_TIMESTAMP_FILE": stamp, "FAKETIME_NO_CACHE": "1"})
    tmux.stable(pane)
    archive_sum, settings_sum = digest(place.archive), digest(place.defaults)
    write_text(stamp, "-20y\n")
    tmux.keys(pane, "+", "Left")
    report.expect(s, "after a jump 20 years back mid-run, the idle save still happens",
                  wait_until(10000, lambda: digest(place.archive) != archive_sum))
    # As the user would look: only HOME and the state folder named.
    shown = run([suite.binary, "state", "show"], env={"HOME": place.home, "XDG_STATE_HOME": place.state}, stderr=subprocess.DEVNULL)[1]
    year = f"{datetime.date.today().year - 20}-"
    report.expect(s, "...and the archive carries the jumped-to year", year in shown,
                  lambda: first_line(place.wl("state", "show")[1], "saved", ignore_case=True))
    archive_sum = digest(place.archive)
    write_text(stamp, "@2090-01-01 00:00:00\n")
    tmux.keys(pane, "-", "m")
    report.expect(s, "after a jump to 2090 mid-run, the idle save still happens",
                  wait_until(10000, lambda: digest(place.archive) != archive_sum))
    report.expect(s, "after the jumps, a settings change is still written",
                  wait_until(10000, lambda: digest(place.defaults) != settings_sum))
    previous = tmux.stable(pane)
    quit("jumping")
    report.expect(s, "the jumping run quits without error", place.status_of("jumping") == "0" and place.quiet("jumping"),
                  f"status {place.status_of('jumping')}: {place.stderr_of('jumping')}")
    launch("afterjumps")
    frame = tmux.stable(pane)
    report.expect(s, "the next launch shows the place the jumping run saved", same_frame(suite, "clock-afterjumps", previous, frame))
    quit("afterjumps")
    files_intact(suite, s, place)

    # Moved-aside names come from the clock: two corrupt files at one frozen second must both be
    # kept, under distinct names, with their bytes.
    for round_number in (1, 2):
        garbage = f"not a plist, round {round_number}"
        write_text(place.archive, garbage)
        write_text(place.defaults, garbage)
        launch(f"frozen{round_number}", {**fake, "FAKETIME": "2001-02-03 04:05:06"})
        tmux.wait_frame(pane)
        time.sleep(0.5)
        tmux.dismiss_alerts(pane)  # the alerts saying what was moved aside
        quit(f"frozen{round_number}")
    names = " ".join(sorted(name for name in os.listdir(place.state_dir) + os.listdir(place.config_dir) if "corrupt-" in name))
    names = names or "no file moved aside in either folder"
    report.expect(s, f"frozen clock: two corrupt archives kept as {FROZEN_STAMP} and -2",
                  os.path.exists(place.archive + FROZEN_STAMP) and os.path.exists(place.archive + FROZEN_STAMP + "-2"), names)
    report.expect(s, f"frozen clock: two corrupt defaults kept as {FROZEN_STAMP} and -2",
                  os.path.exists(place.defaults + FROZEN_STAMP) and os.path.exists(place.defaults + FROZEN_STAMP + "-2"), names)
    kept = read_text(place.archive + FROZEN_STAMP) + read_text(place.defaults + FROZEN_STAMP + "-2")
    report.expect(s, "the moved-aside files keep their bytes", kept == "not a plist, round 1not a plist, round 2", "contents changed")
    tmux.kill_session("clock")
