"""The suite's results: one row per check (scenario, what was checked, result), the table printed at
the end, and the tab-separated copy FAULTS_REPORT asks for."""
import sys


class Report:
    def __init__(self):
        self.rows = []
        self.failures = 0

    def record(self, scenario, check, passed, detail=""):
        """One check's row. A failure is also said on stderr at once, so a long run shows it
        before the table."""
        result = "ok" if passed else "FAIL"
        if detail:
            result = f"{result}: {detail}"
        self.rows.append((scenario, check, result))
        if not passed:
            self.failures += 1
            print(f"faults: FAIL: {scenario}: {check}: {detail}", file=sys.stderr, flush=True)

    def expect(self, scenario, check, outcome, why=""):
        """Records OUTCOME (a bool, or a (bool, why) pair from a check helper). WHY explains a
        failure only; it may be a function, called only when the check failed, so the detail
        describes the moment of failure rather than the moment before the wait."""
        if isinstance(outcome, tuple):
            passed, reason = outcome
            why = reason or why
        else:
            passed = bool(outcome)
        if passed:
            self.record(scenario, check, True)
        else:
            self.record(scenario, check, False, why() if callable(why) else why)
        return passed

    def skip(self, scenario, check, reason):
        """A row that is neither passed nor failed: the reason says what the run lacked."""
        self.rows.append((scenario, check, f"skipped: {reason}"))

    def table(self):
        """The rows under a header, columns aligned as `column -t` aligns them."""
        rows = [("scenario", "checked", "result"), *self.rows]
        widths = [max(len(row[column]) for row in rows) for column in range(2)]
        return "\n".join(f"{row[0].ljust(widths[0])}  {row[1].ljust(widths[1])}  {row[2]}".rstrip() for row in rows)

    def tab_separated(self, summary):
        lines = ["\t".join(row) for row in self.rows]
        lines.append(f"summary\t{summary}")
        return "\n".join(lines) + "\n"
