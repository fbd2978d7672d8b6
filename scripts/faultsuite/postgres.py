"""The synced store's throw-away PostgreSQL server (scripts/pg-server) for the server faults: one per
run (initdb is the slow part), a fresh database per fault, freezing and waking it, its rows, and the
status logs its writers (cloud-hammer) keep."""
import glob
import os
import random
import signal
import subprocess

from .system import read_text, run


class FaultServer:
    @staticmethod
    def shared(suite):
        """The run's server, started by the first fault that asks; None when it cannot start
        (its error is in the output folder's cloud-server-start.err)."""
        if "postgres" not in suite.shared:
            server = FaultServer(suite)
            suite.shared["postgres"] = server if server.start() else None
        return suite.shared["postgres"]

    def __init__(self, suite):
        self.suite = suite
        self.folder = os.path.join(suite.work, "cloud-server")
        self.errors = server_errors(suite)
        self.password = ""

    def pg(self, *arguments, stdout=subprocess.DEVNULL, stderr_path=None, append=True):
        with open(stderr_path or self.errors, "a" if append else "w") as errors:
            return subprocess.run([self.suite.script("pg-server"), *arguments], stdout=stdout, stderr=errors,
                                  stdin=subprocess.DEVNULL).returncode

    def start(self):
        # As root, the server runs as the postgres user: it must get into the run's folder.
        os.chmod(self.suite.work, 0o711)
        self.suite.on_cleanup(self.stop)
        if self.pg("start", self.folder, append=False) != 0:
            return False
        self.password = run([self.suite.script("pg-server"), "password", self.folder], stderr=subprocess.DEVNULL)[1]
        os.environ["PGPASSWORD"] = self.password
        return True

    def stop(self):
        """A server left frozen by an interrupted run is woken first, so it can stop."""
        self.signal("CONT")
        self.pg("stop", self.folder, stderr_path=os.devnull)

    def create(self, database):
        """A fresh database; returns its URL, or "" when it could not be made."""
        status = subprocess.run([self.suite.script("pg-server"), "psql", self.folder, "-qAt", "-c", f"CREATE DATABASE {database}"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=open(self.errors, "a"), env=self.env()).returncode
        if status != 0:
            return ""
        url = run([self.suite.script("pg-server"), "url", self.folder], stderr=subprocess.DEVNULL)[1]
        return url.rsplit("/", 1)[0] + "/" + database

    def env(self):
        return {**os.environ, "PGPASSWORD": self.password}

    def port(self):
        return read_text(os.path.join(self.folder, "port")).strip()

    def running(self):
        return os.path.exists(os.path.join(self.folder, "data", "postmaster.pid"))

    def kill(self):
        """An immediate shutdown, as a crash."""
        self.pg("kill", self.folder, stderr_path=os.devnull)

    def restart(self, errors):
        return self.pg("start", self.folder, stderr_path=errors, append=False) == 0

    def pids(self):
        """The postmaster, then its children (one backend per connection)."""
        lines = read_text(os.path.join(self.folder, "data", "postmaster.pid")).split("\n")
        if not lines or not lines[0].strip().isdigit():
            return []
        postmaster = lines[0].strip()
        children = run(["pgrep", "-P", postmaster])[1].split()
        return [int(postmaster), *(int(child) for child in children if child.isdigit())]

    def signal(self, which):
        """SIGSTOP freezes the postmaster first (so it forks nothing new); SIGCONT wakes its
        children first. False when there is no server."""
        pids = self.pids()
        if not pids:
            return False
        if which == "CONT":
            pids.reverse()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGSTOP if which == "STOP" else signal.SIGCONT)
            except ProcessLookupError:
                pass
        return True

    def rows(self, database, path):
        """The store's table: key, clock, device, deleted, value hex, tab-separated."""
        with open(path, "w") as out:
            subprocess.run([self.suite.script("pg-server"), "psql", self.folder, "-d", database, "-At", "-F", "\t", "-c",
                            "SELECT key, clock, device, deleted, encode(value, 'hex') FROM wonderland_kv ORDER BY key"],
                           stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.DEVNULL, env=self.env())


def database_for(suite, scenario, name):
    """The run's server with a fresh database NAME, and a folder for the fault's journals and
    logs: (server, url, folder), or None once the row saying why there is none is recorded. The
    server runs as the postgres user, which a user namespace lacks."""
    if suite.in_namespace:
        suite.report.skip(scenario, "PostgreSQL server scenarios", "they need real root (the server runs as the postgres user)")
        return None
    folder = os.path.join(suite.work, name)
    os.makedirs(folder)
    server = FaultServer.shared(suite)
    url = server.create(name) if server else ""
    if not url:
        suite.report.record(scenario, "a throw-away server starts", False, last_lines(server_errors(suite)))
        return None
    return server, url, folder


def server_errors(suite):
    return os.path.join(suite.out, "cloud-server-start.err")


def status_field(path, field, after_ms=0):
    """A writer's status log (cloud-hammer's WONDERLAND_HAMMER_STATUS: `ms=… reachable=… written=…`)
    from AFTER_MS on, as (ms, value) pairs of FIELD."""
    pairs = []
    for line in read_text(path).split("\n"):
        values = dict(word.split("=", 1) for word in line.split() if "=" in word)
        if "ms" in values and values["ms"].isdigit() and int(values["ms"]) >= after_ms:
            pairs.append((int(values["ms"]), values.get(field, "")))
    return pairs


def first_offline_ms(path, after_ms):
    return next((ms for ms, reachable in status_field(path, "reachable", after_ms) if reachable == "0"), None)


def written_at(path, ms):
    """The writes counted by the last line at or before MS."""
    last = 0
    for at, written in status_field(path, "written"):
        if at <= ms and written.isdigit():
            last = int(written)
    return last


def has_line(path, prefix="", containing=""):
    return any(line.startswith(prefix) and containing in line for line in read_text(path).split("\n"))


def server_check(suite, scenario, check, folder, note):
    """The writers' dumps and the server's rows in FOLDER against the reference merge of the
    journals there (scripts/lib/cloud_server_check.py), its verdict shown."""
    command = ["python3", os.path.join(suite.repository, "scripts", "lib", "cloud_server_check.py"),
               "--journals", *sorted(glob.glob(os.path.join(folder, "journal-*.jsonl"))),
               "--dumps", *sorted(glob.glob(os.path.join(folder, "dump-*.json"))),
               "--rows", os.path.join(folder, "rows.tsv")]
    if suite.sabotage:
        command.append("--first-writer-wins")
    status, verdict = run(command, timeout=600)
    lines = verdict.split("\n")
    if status == 0:
        suite.report.record(scenario, check, True, lines[-1] + note)
    else:
        suite.report.record(scenario, check, False, " ".join(lines[:4]) + " " + note)


# ---------------------------------------------------------------- the writers

def start_writer(suite, folder, i, url, device, keys, writes, pace_ms, skew_ms=None):
    """One cloud-hammer writing WRITES changes to KEYS keys, journalling each and logging its
    store's status; at most 3 minutes."""
    env = {**os.environ, "WONDERLAND_HAMMER_JOURNAL": f"{folder}/journal-{i}.jsonl",
           "WONDERLAND_HAMMER_STATUS": f"{folder}/status-{i}.txt", "WONDERLAND_HAMMER_PACE_MS": str(pace_ms)}
    if skew_ms is not None:
        env["WONDERLAND_CLOCK_SKEW_MS"] = str(skew_ms)
    with open(f"{folder}/writer-{i}.err", "w") as errors:
        writer = subprocess.Popen(["timeout", "180", suite.cloud_hammer, "write", f"{folder}/data-{i}", url, device,
                                   f"{i}{random.randint(0, 32767)}", str(keys), str(writes)],
                                  env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)
    # An interrupted run leaves no writer behind.
    suite.on_cleanup(lambda: writer.poll() is None and writer.kill())
    return writer


def stop_writers(writers):
    for writer in writers:
        writer.kill()
    for writer in writers:
        writer.wait()


def dump(suite, folder, url, device, name, data=None):
    """What DEVICE's store holds after syncing, as JSON, into FOLDER/NAME."""
    with open(f"{folder}/{name}", "w") as out, open(f"{folder}/dump.err", "a") as errors:
        subprocess.run(["timeout", "60", suite.cloud_hammer, "dump", f"{folder}/{data or 'data-' + device}", url, device],
                       stdin=subprocess.DEVNULL, stdout=out, stderr=errors)


def writer_errors(folder):
    return "".join(read_text(f"{folder}/writer-{i}.err") for i in range(1, 100) if os.path.exists(f"{folder}/writer-{i}.err"))


def trouble(folder, per_file, limit=None):
    """The writers' first lines that say something went wrong, on one line."""
    lines = []
    for i in range(1, 100):
        path = f"{folder}/writer-{i}.err"
        if not os.path.exists(path):
            break
        found = [line for line in read_text(path).split("\n")
                 if any(word in line.lower() for word in ("cloud-hammer:", "fatal", "assert", "crash"))]
        lines += found[:per_file]
    return " ".join(lines[:limit])


def last_lines(path, count=3):
    return "\n".join(read_text(path).rstrip("\n").split("\n")[-count:])
