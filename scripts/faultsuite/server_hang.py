"""server hang: the synced store's PostgreSQL server frozen (SIGSTOP: a hang, not a refusal) while
two stores write and the app runs on it. A pin remembered meanwhile shows at once, the app and the
stores say offline within their time-outs, writes keep returning at once, and after SIGCONT the
app says synced and every write arrives (the pin on the server; the writers' reference merge)."""
import os
import time

from .postgres import (database_for, dump, first_offline_ms, has_line, server_check, start_writer, status_field,
                       stop_writers, trouble, writer_errors, written_at)
from .system import now_ms, read_text, run, wait_until

SCENARIO = "server hang"
# PostgresBackend's defaults: a query unanswered for 5 s means offline, a connection takes at most
# 5 + 5 s; 2 s more for the store's status.
OFFLINE_LIMIT_MS = 12000


def run_fault(suite):
    s, report, tmux = SCENARIO, suite.report, suite.tmux
    writes = 300 if suite.quick else 600
    made = database_for(suite, s, "hang")
    if not made:
        return
    server, url, folder = made
    writers = []
    for i in (1, 2):
        writers.append(start_writer(suite, folder, i, url, f"hang-{i}", 16, writes, pace_ms=20))
    connected = all([wait_until(15000, lambda i=i: "reachable=1" in read_text(f"{folder}/status-{i}.txt")) for i in (1, 2)])
    report.expect(s, "two stores write to the server and reach it", connected,
                  lambda: "\n".join(writer_errors(folder).split("\n")[:3]))
    if not connected:
        stop_writers(writers)
        return
    # The app on the same server (a database of its own, so the journals' reference stays theirs).
    app_url = server.create("hangapp")
    pgpass = os.path.join(folder, "pgpass")
    with open(pgpass, "w") as f:
        f.write(f"127.0.0.1:{server.port()}:hangapp:wonderland:{server.password}\n")
    os.chmod(pgpass, 0o600)
    pane = "serverapp:0.0"
    place = suite.place("serverapp")
    tmux.new_window("serverapp", 120, 24)
    place.launch(tmux, pane, "app", "-HPSyncLocations", "YES", env={"WONDERLAND_SYNC_URL": app_url, "PGPASSFILE": pgpass})
    report.expect(s, "the app syncs through the server (synced)", wait_until(15000, lambda: synced(tmux, pane)),
                  lambda: f"screen: {tab_bar(tmux, pane)}")
    frozen_at = now_ms()
    if not server.signal("STOP"):
        report.record(s, "SIGSTOP the server", False, "no postmaster.pid")
    # The app while the server hangs: a pin remembered now shows at once, and it says offline.
    tmux.keys(pane, "r")
    wait_until(3000, lambda: tmux.shows(pane, "Remember this place"))
    tmux.send(pane, "C-u")
    tmux.send(pane, "-l", "Frozen pin")
    tmux.send(pane, "Enter")
    report.expect(s, "the app keeps working: a pin remembered while the server hangs shows within 2 s",
                  wait_until(2000, lambda: tmux.shows(pane, "⚑ Frozen pin")), lambda: f"screen: {tmux.last_lines(pane)}")
    # Frozen until both stores and the app said offline (at most the limit), and a second more.
    wait_until(OFFLINE_LIMIT_MS, lambda: all("reachable=0" in read_text(f"{folder}/status-{i}.txt") for i in (1, 2)))
    report.expect(s, f"the app says offline within {OFFLINE_LIMIT_MS // 1000} s",
                  wait_until(OFFLINE_LIMIT_MS - (now_ms() - frozen_at), lambda: tmux.shows(pane, "offline")),
                  lambda: f"tab bar: {tab_bar(tmux, pane)}")
    time.sleep(1)
    resumed_at = now_ms()
    server.signal("CONT")
    offline = [first_offline_ms(f"{folder}/status-{i}.txt", frozen_at) for i in (1, 2)]
    said = [f"after {at - frozen_at} ms" if at is not None else f"never (frozen {resumed_at - frozen_at} ms)" for at in offline]
    report.record(s, f"frozen server: both stores say offline within {OFFLINE_LIMIT_MS // 1000} s",
                  all(at is not None and at - frozen_at <= OFFLINE_LIMIT_MS for at in offline),
                  f"store 1 {said[0]}, store 2 {said[1]}")
    failed = any(writer.wait() != 0 for writer in writers)
    status_1 = f"{folder}/status-1.txt"
    during = written_at(status_1, resumed_at) - written_at(status_1, frozen_at)
    slowest_values = status_field(status_1, "max_set_ms")
    slowest = slowest_values[-1][1] if slowest_values else ""
    report.record(s, "while frozen, writes keep returning at once (more than 10 written, none over 200 ms)",
                  during > 10 and int(slowest or 99999) <= 200,
                  f"{during} writes while frozen, the slowest set() took {slowest or '?'} ms")
    report.expect(s, "after SIGCONT, the app says synced again", wait_until(20000, lambda: synced(tmux, pane)),
                  lambda: f"tab bar: {tab_bar(tmux, pane)}")
    place.quit(tmux, pane, "app")
    report.expect(s, "the app quits normally", place.status_of("app") == "0",
                  lambda: f"status {place.status_of('app')}: {' '.join(place.stderr_of('app').split(chr(10))[:2])}")
    tmux.kill_session("serverapp")
    app_dump = run(["timeout", "60", suite.cloud_hammer, "dump", f"{folder}/data-appcheck", app_url, "appcheck"], timeout=None)[1]
    report.expect(s, "the pin remembered during the hang reached the server", "Frozen pin" in app_dump, app_dump[:300])
    for i in (1, 2):
        suite.keep_file(f"{folder}/writer-{i}.err", f"hang-writer-{i}.err")
    report.expect(s, "after SIGCONT, both writers send everything and finish", not failed,
                  lambda: f"{trouble(folder, 2)} ({suite.out_label}/hang-writer-*.err)")
    report.expect(s, "after SIGCONT, the stores say online again",
                  all(has_line(f"{folder}/status-{i}.txt", "done", "reachable=1") for i in (1, 2)),
                  lambda: " ".join(map(str, (status_field(status_1, "reachable", resumed_at) or [("", "")])[-1])))
    dump(suite, folder, url, "checker", "dump-checker.json")
    for i in (1, 2):
        dump(suite, folder, url, f"hang-{i}", f"dump-{i}.json", data=f"data-{i}")
    server.rows("hang", f"{folder}/rows.tsv")
    server_check(suite, s, "every write arrived: a new device, both writers and the server's table equal the reference merge", folder, "")
    for i in (1, 2):
        suite.keep_file(f"{folder}/status-{i}.txt", f"status-{i}.txt")


def tab_bar(tmux, pane):
    return tmux.screen(pane).split("\n")[0]


def synced(tmux, pane):
    return " synced" in tab_bar(tmux, pane)

