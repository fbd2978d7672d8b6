"""resize storm: hundreds of `tmux resize-window` a second on each tab. The app stays alive, its
memory stays flat, and its last frame equals a fresh launch's at that size."""
import os
import random

from .checks import same_frame
from .system import now_ms
from .tmux import rss_kb

SCENARIO = "resize storm"
# Each tab's final size after its storm.
FINAL_SIZES = {1: (97, 31), 2: (61, 19), 3: (133, 42)}
# Memory may grow this much between the storm's halves (allocator noise); a leak per resize would
# grow with every batch.
RSS_NOISE_KB = 2048


def run_fault(suite):
    s, report, tmux = SCENARIO, suite.report, suite.tmux
    seconds = 2 if suite.quick else 10
    pane = "storm:0.0"
    place = suite.place("storm")
    book = os.path.join(suite.work, "storm", "book.txt")
    with open(book, "w") as f:
        for i in range(1, 401):
            f.write(f"Chapter {i}. The Queen's croquet ground, line {i}: off with their heads, said the Queen, number {i}.\n\n")
    tmux.new_window("storm", 80, 24)
    for tab, (columns, rows) in FINAL_SIZES.items():
        tmux("resize-window", "-t", "storm", "-x", "80", "-y", "24")
        tag = f"tab{tab}"
        place.launch(tmux, pane, tag, *(["--book", book] if tab == 3 else []))
        if not tmux.wait_frame(pane):
            report.record(s, f"tab {tab}: launch draws", False)
            continue
        tmux.keys(pane, str(tab))
        if tab == 2:
            tmux.keys(pane, "Down", "Down", "Enter")
        if tab == 3:
            tmux.keys(pane, "PageDown")
        tmux.stable(pane)
        pid = tmux.app_pid(pane)
        count, samples = storm(tmux, pane, pid, seconds)
        tmux("resize-window", "-t", "storm", "-x", str(columns), "-y", str(rows))
        alive = pid is not None and os.path.isdir(f"/proc/{pid}") and not tmux.dead(pane)
        after_storm = tmux.stable(pane)
        report.expect(s, f"tab {tab}: alive after {count} resizes in {seconds} s ({count // seconds}/s)", alive,
                      f"status {place.status_of(tag)}: {place.stderr_of(tag)}")
        half = len(samples) // 2
        first, last = max(samples[:half], default=0), max(samples[half:], default=0)
        report.expect(s, f"tab {tab}: memory flat during the storm (VmRSS {samples[0]}→{samples[-1]} kB)", last <= first + RSS_NOISE_KB,
                      f"VmRSS peaks {first} kB then {last} kB (samples {' '.join(map(str, samples))})")
        place.quit(tmux, pane, tag)
        place.launch(tmux, pane, f"fresh{tab}")
        fresh = tmux.stable(pane)
        report.expect(s, f"tab {tab}: the frame at {columns}x{rows} equals a fresh launch's",
                      same_frame(suite, f"storm-tab{tab}", fresh, after_storm))
        place.quit(tmux, pane, f"fresh{tab}")
    tmux.kill_session("storm")


def storm(tmux, pane, pid, seconds):
    """Resizes the window at random (20–200 × 6–60) as fast as tmux takes it, 50 a tmux call, for
    SECONDS; samples the app's VmRSS every half second. Returns the resizes and the samples."""
    window = pane.split(".")[0]
    count, samples = 0, []
    end, next_sample = now_ms() + seconds * 1000, now_ms()
    while now_ms() < end:
        batch = []
        for _ in range(50):
            batch += ["resize-window", "-t", window, "-x", str(random.randint(20, 200)), "-y", str(random.randint(6, 60)), ";"]
        tmux(*batch)
        count += 50
        if now_ms() >= next_sample:
            samples.append(rss_kb(pid))
            next_sample = now_ms() + 500
    samples.append(rss_kb(pid))
    return count, samples
