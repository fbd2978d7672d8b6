"""two instances: two apps on one HOME, quit by one keystroke to both. One complete state (the
relaunch shows one instance's whole place, not a mix), both instances' settings, no temporaries,
no error."""
import time

from .system import non_empty, wait_until

SCENARIO = "two instances"


def run_fault(suite):
    s, report, tmux = SCENARIO, suite.report, suite.tmux
    rounds = 3 if suite.quick else 10
    place = suite.place("twins")
    quit_clean = one_state = both_settings = intact = a_won = b_won = 0
    for round_number in range(1, rounds + 1):
        a, b = f"a{round_number}", f"b{round_number}"
        tmux.new_window("twins", 241, 24)
        tmux("split-window", "-h", "-t", "twins:0", "sleep 1000000")
        tmux("select-layout", "-t", "twins:0", "even-horizontal")
        # --fresh: each round starts from the default screens, so the keys below mean the same.
        place.launch(tmux, "twins:0.0", a, "--fresh")
        place.launch(tmux, "twins:0.1", b, "--fresh")
        tmux.wait_frame("twins:0.0")
        tmux.wait_frame("twins:0.1")
        # Different places (and one setting each) every round.
        tmux.keys("twins:0.0", "1", *["+"] * (round_number % 4 + 1), "Right", "m")
        tmux.keys("twins:0.1", "1", "t", "2", "Down", "Enter")
        frame_a = tmux.stable("twins:0.0")
        frame_b = tmux.stable("twins:0.1")
        time.sleep(0.5)  # let both idle saves land, so the quit is what races
        tmux("set-window-option", "-t", "twins:0", "synchronize-panes", "on")
        tmux.send("twins:0.0", "q")
        wait_until(10000, lambda: non_empty(place.log(a, ".status")))
        wait_until(10000, lambda: non_empty(place.log(b, ".status")))
        if place.status_of(a) == "0" and place.status_of(b) == "0" and place.quiet(a) and place.quiet(b):
            quit_clean += 1
        else:
            report.record(s, f"round {round_number}: both quit with status 0 and nothing on stderr", False,
                          f"round {round_number}: status {place.status_of(a)}/{place.status_of(b)}, "
                          f"stderr {place.stderr_of(a)} {place.stderr_of(b)}")
        if place.wl("defaults", "read", "HPMapType")[0] == 0 and place.wl("defaults", "read", "HPFollowHeading")[0] == 0:
            both_settings += 1
        else:
            report.record(s, f"round {round_number}: both instances' settings kept", False,
                          " ".join(place.wl("defaults", "read")[1].split("\n")))
        archive, why_archive = place.archive_readable()
        defaults, why_defaults = place.defaults_readable()
        if archive and defaults and not place.temporaries() and not place.moved_aside():
            intact += 1
        else:
            report.record(s, f"round {round_number}: files readable, no temporaries", False,
                          f"{why_archive or why_defaults} {' '.join(place.temporaries() + place.moved_aside())}")
        tmux.kill_session("twins")
        tmux.new_window("twins", 120, 24)
        relaunch = f"check{round_number}"
        place.launch(tmux, "twins:0.0", relaunch)
        frame = tmux.stable("twins:0.0")
        if frame in (frame_a, frame_b):
            one_state += 1
            if frame == frame_a:
                a_won += 1
            else:
                b_won += 1
        else:
            suite.keep(f"twins-round{round_number}-a", frame_a)
            suite.keep(f"twins-round{round_number}-b", frame_b)
            suite.keep(f"twins-round{round_number}-relaunch", frame)
            report.record(s, f"round {round_number}: the relaunch shows one instance's place", False,
                          f"{suite.out_label}/twins-round{round_number}-*.txt")
        place.quit(tmux, "twins:0.0", relaunch)
        tmux.kill_session("twins")
    report.record(s, "one send-keys q to both: quit cleanly (status 0, no stderr)", quit_clean == rounds,
                  f"{quit_clean} of {rounds} rounds")
    report.record(s, "the relaunch shows one instance's whole place, not a mix", one_state == rounds,
                  f"{one_state} of {rounds} rounds (the map pane's place {a_won} times, the characters pane's {b_won})")
    report.record(s, "both instances' settings are in defaults.plist", both_settings == rounds, f"{both_settings} of {rounds} rounds")
    report.record(s, "archive and defaults readable, no temporaries, nothing moved aside", intact == rounds,
                  f"{intact} of {rounds} rounds")
