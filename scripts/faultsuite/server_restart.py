"""server restart: the server killed (immediate shutdown, as a crash) and started again while 8
writers write. Every writer reconnects and finishes, and nothing is lost: every writer's dump and
the server's table equal the reference merge of their journals."""
import os
import random
import time

from .postgres import database_for, dump, server_check, start_writer, stop_writers, trouble, writer_errors
from .system import read_text, wait_until

SCENARIO = "server restart"
WRITERS = 8
# Each writer's clock is skewed by up to an hour either way, so merge order cannot lean on it.
SKEW_MS = 3_600_000


def run_fault(suite):
    s, report = SCENARIO, suite.report
    writes = 150 if suite.quick else 600
    made = database_for(suite, s, "restart")
    if not made:
        return
    server, url, folder = made
    numbers = range(1, WRITERS + 1)
    writers = [start_writer(suite, folder, i, url, f"restart-{i}", 20, writes, pace_ms=10,
                            skew_ms=random.randint(-SKEW_MS, SKEW_MS)) for i in numbers]
    connected = sum(wait_until(15000, lambda i=i: "reachable=1" in read_text(f"{folder}/status-{i}.txt")) for i in numbers)
    report.expect(s, f"all {WRITERS} writers reach the server", connected == WRITERS,
                  lambda: f"{connected} of {WRITERS}: " + "\n".join(writer_errors(folder).split("\n")[:3]))
    if connected < WRITERS:
        stop_writers(writers)
        return
    time.sleep(0.3)
    server.kill()
    running = sum(writer.poll() is None for writer in writers)
    report.expect(s, "the server is killed (immediate shutdown) while the writers write", not server.running() and running == WRITERS,
                  f"{running} of {WRITERS} writers still running")
    time.sleep(1)
    errors = os.path.join(suite.out, "cloud-server-restart.err")
    server.restart(errors)
    report.expect(s, "the server starts again on its port", server.running(), lambda: last_lines(errors, 2))
    failed = sum(writer.wait() != 0 for writer in writers)
    for i in numbers:
        suite.keep_file(f"{folder}/writer-{i}.err", f"restart-writer-{i}.err")
    report.expect(s, f"all {WRITERS} writers reconnect, send everything and finish", failed == 0,
                  lambda: f"{failed} failed: {trouble(folder, 2, limit=3)} ({suite.out_label}/restart-writer-*.err)")
    offline = sum("reachable=0" in read_text(f"{folder}/status-{i}.txt") for i in numbers)
    for i in numbers:
        dump(suite, folder, url, f"restart-{i}", f"dump-{i}.json", data=f"data-{i}")
    server.rows("restart", f"{folder}/rows.tsv")
    server_check(suite, s, "nothing lost: every writer's dump and the server's table equal the reference merge", folder,
                 f" ({offline} of {WRITERS} writers saw the server offline)")
