"""scripts/bench-book-first-frame: see that script for what is measured and how."""
import os
import plistlib
import random
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import bench_sections  # noqa: E402
import bench_summary  # noqa: E402
import book_first_frame as frame  # noqa: E402

bin_dir, runs = sys.argv[1], int(sys.argv[2])
# The script builds release; a run on another build says so wherever its figures go.
build_kind = "release build, static Swift runtime" if "release" in os.path.realpath(bin_dir) else \
    f"NOT a release build ({os.path.realpath(bin_dir)}): figures indicative only"
app = os.path.join(bin_dir, "wonderland")
loader = os.path.join(bin_dir, "bench-book-load")
out = "bench-out"
work = os.path.join(out, "book-first-frame")
os.makedirs(out, exist_ok=True)

# The books: generated once, kept in bench-out/ (not in git).
books = {}
for label, size in (("64 KB", 64 << 10), ("10 MB", 10 << 20), ("100 MB", 100 << 20)):
    path = os.path.join(out, f"book-{label.replace(' ', '').lower()}.txt")
    if not os.path.exists(path) or os.path.getsize(path) > size or os.path.getsize(path) < size - 4096:
        print(f"bench-book-first-frame: writing {path}", file=sys.stderr)
        frame.generate_book(path, size)
    offset, tag = frame.paragraph_at(path, 0.9)
    said = subprocess.run([loader, path], capture_output=True, text=True, check=True).stdout
    book_id = re.search(r"^id: (\w+)$", said, re.M).group(1)
    books[label] = {"path": os.path.abspath(path), "size": os.path.getsize(path), "offset": offset, "tag": tag, "id": book_id}

# One home for the app: the saved places in its defaults, as a reader leaves them; one state
# folder that keeps its book indexes (warm) and one whose indexes are removed before each run (cold).
shutil.rmtree(work, ignore_errors=True)
for folder in ("home", "config/wonderland", "data", "state-warm", "state-cold"):
    os.makedirs(os.path.join(work, folder), exist_ok=True)
with open(os.path.join(work, "config/wonderland/defaults.plist"), "wb") as f:
    plistlib.dump({"WLReadingPositions": {b["id"]: {"offset": b["offset"]} for b in books.values()}}, f)
base_env = {k: v for k, v in os.environ.items() if not k.startswith("LESS") and not k.startswith("XDG_")}
base_env.update(TERM="xterm-256color", LANG="C.UTF-8", LESSHISTFILE="-")
absolute = os.path.abspath(work)


def app_env(state):
    env = dict(base_env, HOME=f"{absolute}/home", XDG_CONFIG_HOME=f"{absolute}/config", XDG_DATA_HOME=f"{absolute}/data",
               XDG_STATE_HOME=f"{absolute}/{state}")
    return env


HINT_BAR_END = " Quit "  # the hint bar, the last row wonderland draws
LESS_PROMPT = "FRAME-END"  # less -Ps: the prompt, drawn after the page


def ours(book, state):
    return ([app, "--book", book["path"]], app_env(state), [book["tag"], HINT_BAR_END])


def less(book, numbers):
    flags = [] if numbers else ["-n"]
    return (["less", *flags, f"-Ps{LESS_PROMPT}", f"+{book['offset']}P", book["path"]], base_env, [book["tag"], LESS_PROMPT])


cases = {}
for label in ("10 MB", "100 MB"):
    book = books[label]
    cases[f"less -n {label}"] = less(book, numbers=False)
    cases[f"less {label}"] = less(book, numbers=True)
    cases[f"ours {label}"] = ours(book, "state-warm")
    cases[f"ours {label}, no index"] = ours(book, "state-cold")
cases["ours 64 KB"] = ours(books["64 KB"], "state-warm")

# Warm-up, and the index made: each book opened once with time to count its pages and write
# the index, then the resident memory once the work after the first frame is done.
settled = {}
for name in ("ours 64 KB", "ours 10 MB", "ours 100 MB", "less -n 10 MB", "less -n 100 MB"):
    argv, env, markers = cases[name]
    _, _, later, _ = frame.run_once(argv, env, markers, timeout=30, settle=4.0)
    settled[name] = later
index_folder = f"{absolute}/state-warm/wonderland/book-index"
indexes = [n for n in os.listdir(index_folder) if n.endswith(".bookindex")] if os.path.isdir(index_folder) else []
if len(indexes) != 3:
    sys.exit(f"bench-book-first-frame: expected 3 book indexes after the warm-up, found {indexes}")

times = {name: [] for name in cases}
rss = {name: [] for name in cases}
anon = {name: [] for name in cases}
order = list(cases)
shuffle = random.Random(1)
for _ in range(runs):
    shuffle.shuffle(order)
    for name in order:
        argv, env, markers = cases[name]
        if name.endswith("no index"):
            shutil.rmtree(f"{absolute}/state-cold/wonderland/book-index", ignore_errors=True)
        ms, at_frame, _, _ = frame.run_once(argv, env, markers, timeout=30)
        times[name].append(ms)
        rss[name].append(at_frame.get("VmRSS", 0) / 1024)
        anon[name].append(at_frame.get("RssAnon", 0) / 1024)

med = {name: frame.median(values) for name, values in times.items()}
mem = {name: frame.median(values) for name, values in rss.items()}
private = {name: frame.median(values) for name, values in anon.items()}
for name in cases:
    print(f"{name}: median {med[name]:.1f} ms (min {min(times[name]):.1f}, max {max(times[name]):.1f}), "
          f"resident at the frame {mem[name]:.1f} MB")

ms = lambda v: f"{v:.1f} ms"
mb = lambda v: f"{v:.1f} MB"
rows = []
for label in ("10 MB", "100 MB"):
    for name in (f"less -n {label}", f"less {label}", f"ours {label}", f"ours {label}, no index"):
        peer = med[f"less -n {label}"]
        settled_rss = settled.get(name)
        rows.append(f"| {name} | {ms(med[name])} | {med[name] / peer:.2f}× | {mb(mem[name])} | {mem[name] / mem[f'less -n {label}']:.2f}× | "
                    f"{mb(private[name])} | {private[name] / private[f'less -n {label}']:.2f}× | "
                    f"{mb(settled_rss['VmRSS'] / 1024) if settled_rss else ''} |")
rows.append(f"| ours 64 KB (the app's own floor on this tab) | {ms(med['ours 64 KB'])} | | {mb(mem['ours 64 KB'])} | | "
            f"{mb(private['ours 64 KB'])} | | {mb(settled['ours 64 KB']['VmRSS'] / 1024)} |")

goal10 = med["ours 10 MB"] <= med["less -n 10 MB"]
goal100 = med["ours 100 MB"] <= 50
mem10 = mem["ours 10 MB"] <= 2 * mem["less -n 10 MB"]
mem100 = mem["ours 100 MB"] <= 2 * mem["less -n 100 MB"]
book_share10 = med["ours 10 MB"] - med["ours 64 KB"]
book_share100 = med["ours 100 MB"] - med["ours 64 KB"]

bench_sections.replace_section("Book: first frame at a saved offset", f"""## Book: first frame at a saved offset

Command: `scripts/bench-book-first-frame {runs}` ({build_kind};
`scripts/lib/book_first_frame_bench.py`). Books generated into `bench-out/` (not in git): 10 MB
({books['10 MB']['size']:,} bytes) and 100 MB ({books['100 MB']['size']:,} bytes) of made-up prose,
paragraphs hard-wrapped at 66 columns, each starting with its own tag, a chapter heading every 200
paragraphs, LF line ends; and a 64 KB one made the same way. The saved offset is the start of the
paragraph at 90% of each book (10 MB: byte {books['10 MB']['offset']:,}; 100 MB: byte {books['100 MB']['offset']:,}),
in the app's defaults as a reader leaves it.

Each run starts a whole process on a pseudo-terminal of its own (python3 `pty.fork`, 80×24, no
wrapper) and stops the clock when the terminal has received the whole first frame: the tag of the
paragraph at the offset (the page's top line) and the frame's last item (wonderland: the hint
bar; `less`: its prompt, set with `-Ps`). Resident memory (VmRSS) is read from `/proc` at that
moment, and of it the anonymous part (RssAnon: the heap, stacks and other private memory; the rest
is pages of files, mostly program code, which a static binary counts whole where a dynamic one
shares libc's with every process). Peers on the same file at the same byte offset: `less -n +OFFSETP FILE` ("go to the line
containing byte offset OFFSET"; `-n` because without it `less` counts the lines up to the offset
first, shown as the `less` rows). Ours: `wonderland --book FILE`, its book index made by an earlier
launch ("ours"), and with the index folder removed before each run ("no index": the first opening
of a book, or after it changed). The 64 KB row is the app with a book that costs nothing, the
floor the app's own start-up sets on this tab. All cases interleaved in a shuffled order per round,
{runs} rounds after a warm-up (the files are in the page cache for every case); medians. "Settled"
is the resident memory 4 s after the first frame of the warm-up run — the book's first opening,
so the work after the frame (reading the book for its index, the page count, the index written)
has been done by then.

| case | first frame (median) | ÷ `less -n` | resident at the frame | ÷ `less -n` | of it anonymous | ÷ `less -n` | settled |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
{chr(10).join(rows)}

Goals: 10 MB no slower than `less` at the same place: {"met" if goal10 else "NOT met"} ({med['ours 10 MB'] / med['less -n 10 MB']:.2f}× `less -n`,
{med['ours 10 MB'] / med['less 10 MB']:.2f}× `less`). 100 MB within 50 ms: {"met" if goal100 else "NOT met"} ({ms(med['ours 100 MB'])}).
Resident memory at the frame within 2× `less -n`: 10 MB {"met" if mem10 else "NOT met"} ({mem['ours 10 MB'] / mem['less -n 10 MB']:.1f}×),
100 MB {"met" if mem100 else "NOT met"} ({mem['ours 100 MB'] / mem['less -n 100 MB']:.1f}×). The goal is on the whole resident set; its
anonymous part alone is {private['ours 10 MB'] / private['less -n 10 MB']:.1f}× `less -n`'s at 10 MB and {private['ours 100 MB'] / private['less -n 100 MB']:.1f}× at 100 MB.

What the book itself costs: the 10 MB book's first frame is {book_share10:+.1f} ms and the 100 MB one's {book_share100:+.1f} ms
from the 64 KB book's, and their resident memory {mem['ours 10 MB'] - mem['ours 64 KB']:+.1f} MB and {mem['ours 100 MB'] - mem['ours 64 KB']:+.1f} MB: with its
index, opening a book maps the file, reads the index and eight sampled 4 KB blocks, and lays out
the page at the offset; no pass over the text comes before the frame. The rest of the time and
memory is the app's start-up (Swift runtime, Foundation, the tabs), the same for any book.
{bench_sections.measured()}; {build_kind}.
""")

bench_summary.add("book: first frame at a saved offset, 10 MB, whole process (median)", ms(med["ours 10 MB"]),
                  f"less -n +OFFSETP {ms(med['less -n 10 MB'])}", bench_summary.ratio(med["ours 10 MB"], med["less -n 10 MB"]),
                  f"goal no slower than less: {bench_summary.verdict(goal10)}")
bench_summary.add("book: first frame at a saved offset, 100 MB, whole process (median)", ms(med["ours 100 MB"]),
                  "budget 50 ms", bench_summary.ratio(med["ours 100 MB"], 50.0), f"goal within 50 ms: {bench_summary.verdict(goal100)}")
for label, met in (("10 MB", mem10), ("100 MB", mem100)):
    bench_summary.add(f"book: resident memory at the first frame, {label}", mb(mem[f"ours {label}"]),
                      f"less -n {mb(mem[f'less -n {label}'])}", bench_summary.ratio(mem[f"ours {label}"], mem[f"less -n {label}"]),
                      f"goal within 2x less: {bench_summary.verdict(met)}")
