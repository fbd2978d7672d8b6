"""What a crowd of devices costs the machine, sampled while `cloud-hammer crowd` runs
(scripts/bench-cloud-crowd).

    python3 scripts/lib/crowd_sampler.py SERVER_DIR ROLE HAMMER_PID OUT [--interval S]

Every S seconds (1) until HAMMER_PID ends, one JSON line to OUT: the time, the 1-minute load
average, the machine's busy and total CPU ticks, the server's client backends of ROLE (from
`pg_stat_activity`, through `scripts/pg-server psql`), the proportional memory (PSS, from
/proc/PID/smaps_rollup) and CPU ticks of the postmaster and its children, of PgBouncer when
SERVER_DIR/pooler/pgbouncer.pid names a live one (with its clients waiting for a server
connection and the longest wait, from SHOW POOLS), and of the sync helpers HAMMER_PID started
(their PSS every fifteenth sample only: a thousand smaps_rollup reads are not free), and of
cloud-hammer itself.
"""
import json
import os
import subprocess
import sys
import time


def children_by_parent():
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = open(f"/proc/{name}/stat").read()
        except OSError:
            continue
        # The command may hold spaces and parentheses: the fields after the last ")" are fixed.
        command = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        found.setdefault(int(fields[1]), []).append((int(name), command, int(fields[11]) + int(fields[12])))
    return found


def pss_kib(pid):
    try:
        for line in open(f"/proc/{pid}/smaps_rollup"):
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def ticks(pid):
    try:
        stat = open(f"/proc/{pid}/stat").read()
        fields = stat[stat.rindex(")") + 2:].split()
        return int(fields[11]) + int(fields[12])
    except OSError:
        return 0


def live_pid(path):
    try:
        pid = int(open(path).read().split()[0])
        os.kill(pid, 0)
        return pid
    except (OSError, ValueError, IndexError):
        return None


class Console:
    """One psql kept open for the whole run: a psql started per sample (through bash and
    runuser) costs the machine more than a sample should."""

    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(self, sql):
        """The answer's lines, or None when psql has gone or did not answer in 10 s."""
        try:
            self.process.stdin.write(sql.rstrip(";") + ";\n\\echo ---end---\n")
            self.process.stdin.flush()
            lines = []
            deadline = time.time() + 10
            while time.time() < deadline:
                line = self.process.stdout.readline()
                if not line:
                    return None
                if line.strip() == "---end---":
                    return lines
                lines.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass
        return None

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


def backends(console, role):
    lines = console.ask(f"SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND usename = '{role}'")
    try:
        return int(lines[0]) if lines else None
    except ValueError:
        return None


def pool_console(server_dir):
    """PgBouncer's console (the server's password, PGPASSWORD, as a stats user), once it runs."""
    try:
        port = open(f"{server_dir}/pooler/port").read().strip()
    except OSError:
        return None
    return Console(["psql", f"host=127.0.0.1 port={port} dbname=pgbouncer user=wonderland sslmode=require", "--csv", "-q"])


def pool_waits(console):
    """Clients waiting for a server connection, and the longest wait (ms), from SHOW POOLS."""
    import csv
    lines = console.ask("SHOW POOLS") if console else None
    try:
        rows = [row for row in csv.DictReader(lines or []) if row.get("database") == "wonderland"]
        if not rows:
            return None, None
        waiting = sum(int(row["cl_waiting"]) for row in rows)
        longest = max(int(row["maxwait"]) * 1000 + int(row.get("maxwait_us", 0)) // 1000 for row in rows)
        return waiting, longest
    except (ValueError, KeyError):
        return None, None


def machine_ticks():
    fields = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def main():
    server_dir, role, hammer, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    interval = float(sys.argv[sys.argv.index("--interval") + 1]) if "--interval" in sys.argv else 1.0
    number = 0
    server_console = Console(["scripts/pg-server", "psql", server_dir, "-At", "-q"])
    pooler_console = None
    with open(out, "w") as sink:
        while True:
            try:
                os.kill(hammer, 0)
            except OSError:
                break
            started = time.time()
            tree = children_by_parent()
            sample = {"t": started, "load1": float(open("/proc/loadavg").read().split()[0])}
            sample["busy"], sample["total"] = machine_ticks()
            sample["backends"] = backends(server_console, role)
            postmaster = live_pid(f"{server_dir}/data/postmaster.pid")
            if postmaster:
                server = [postmaster] + [pid for pid, _, _ in tree.get(postmaster, [])]
                sample["server_pss_kib"] = sum(pss_kib(pid) for pid in server)
                sample["server_processes"] = len(server)
                sample["server_ticks"] = sum(ticks(pid) for pid in server)
            pooler = live_pid(f"{server_dir}/pooler/pgbouncer.pid")
            if pooler:
                sample["pooler_pss_kib"] = pss_kib(pooler)
                sample["pooler_ticks"] = ticks(pooler)
                pooler_console = pooler_console or pool_console(server_dir)
                sample["pool_waiting"], sample["pool_maxwait_ms"] = pool_waits(pooler_console)
            # HAMMER_PID may be a `timeout` in front of cloud-hammer: its whole tree is looked at.
            below, pending = [], [hammer]
            while pending:
                for child in tree.get(pending.pop(), []):
                    below.append(child)
                    pending.append(child[0])
            helpers = [(pid, cpu) for pid, command, cpu in below if command.startswith("wonderland-sync")]
            hammers = [pid for pid, command, _ in below if command == "cloud-hammer"] or [hammer]
            sample["helpers"] = len(helpers)
            sample["helper_ticks"] = sum(cpu for _, cpu in helpers)
            sample["hammer_pss_kib"] = sum(pss_kib(pid) for pid in hammers)
            sample["hammer_ticks"] = sum(ticks(pid) for pid in hammers)
            # A thousand smaps_rollup reads are not free: the helpers' memory now and then.
            if number % 15 == 0 and helpers:
                sample["helpers_pss_kib"] = sum(pss_kib(pid) for pid, _ in helpers)
            sink.write(json.dumps(sample) + "\n")
            sink.flush()
            number += 1
            time.sleep(max(0.0, interval - (time.time() - started)))
    server_console.close()
    if pooler_console:
        pooler_console.close()


if __name__ == "__main__":
    main()
