"""Rewriting one `## ...` section of BENCHMARKS.md, for the bench scripts that fill a template.

Each script owns the section under its heading, up to the next `## ` heading: a run replaces it
whole (or appends it at the end when it is not there yet), so running a script twice leaves one
section with the latest figures.
"""
import datetime
import os
import re
import subprocess


def replace_section(title, section, path="BENCHMARKS.md"):
    text = open(path, encoding="utf-8").read()
    pattern = r"^## " + re.escape(title) + r"\n.*?(?=\n## |\Z)"
    if re.search(pattern, text, flags=re.S | re.M):
        # A function, so backslashes in the section are not read as group references.
        text = re.sub(pattern, lambda _: section.rstrip() + "\n", text, count=1, flags=re.S | re.M)
    else:
        text = text.rstrip() + "\n\n" + section.rstrip() + "\n"
    open(path, "w", encoding="utf-8").write(text)


def measured():
    """`Measured DATE on CPU, nproc N; Swift ...; load average ...`: where and when a run was made."""
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown CPU")
    try:
        swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        swift = "Swift (version unknown)"
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    return (f"Measured {datetime.date.today().isoformat()} on {cpu}, `nproc` {os.cpu_count()}; {swift}; "
            f"load average {load} at the end of the run")
