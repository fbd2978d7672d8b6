"""The benchmark summary convention shared by scripts/bench-* and scripts/stress-defaults.

When BENCH_SUMMARY names a file, each compared figure is appended to it as one tab-separated
line: benchmark, ours, peer and its figure, ratio, goal and verdict. scripts/bench-all sets it,
collects the lines and builds the summary table at the top of BENCHMARKS.md; run alone, a script
writes nothing here. From bash: python3 scripts/lib/bench_summary.py BENCHMARK OURS PEER RATIO GOAL
"""
import os
import sys


def add(benchmark, ours, peer, ratio, goal):
    path = os.environ.get("BENCH_SUMMARY")
    if not path:
        return
    # A tab or newline inside a field would shift every later column of the table.
    fields = [" ".join(str(f).split()) for f in (benchmark, ours, peer, ratio, goal)]
    with open(path, "a", encoding="utf-8") as summary:
        summary.write("\t".join(fields) + "\n")


def ratio(ours, peer):
    """Ours over the peer, the one direction the summary table uses (below 1: ours takes less)."""
    if not peer:
        return "n/a"
    value = ours / peer
    # Two significant digits for small ratios, so 0.00028x does not read as 0.00x.
    return f"{value:.2f}x" if value >= 0.1 else f"{value:.2g}x"


def verdict(met):
    return "met" if met else "NOT met"


def quick():
    """BENCH_QUICK=1 (scripts/bench-all --quick): small counts to check the plumbing only."""
    return os.environ.get("BENCH_QUICK", "") not in ("", "0")


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit("usage: bench_summary.py BENCHMARK OURS PEER RATIO GOAL")
    add(*sys.argv[1:])
