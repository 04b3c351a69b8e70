"""Race the polynav command line against peer planners on the same maps and queries.

Grid job: `polynav scen MAP SCEN` with grid.search = astar, jps and jps+ against warthog's
astar, jps, jps2, jps+ and jps2+ on MovingAI maps. Mesh job: `polynav scen MESH SCEN --method
navmesh --set navmesh.search=optimal` against Polyanya's `scenariorunner MESH SCEN`.

Every tool runs as its own process, pinned to one core (taskset) when taskset exists, and the
tools take turns: polynav, peer(s), polynav, peer(s), ... for --repeat rounds, so that a change
of load on the machine hits them alike. For each polynav / peer pair it reports:

- per-query search time as each tool times it (each query's fastest over the rounds): mean,
  median, p95 in us;
- the first query's time (a fresh process, nothing warm) and its ratio to the median;
- process wall time, start to exit, and start to the first answer (the same tool run on a
  scenario holding only the first query); loading and preprocessing (JPS+ jump tables) count
  here, not in the search times;
- the process's max RSS (through GNU time where installed);
- polynav / peer ratios of each, and the number of queries whose lengths disagree: by more than
  1e-6 relative, or than the rounding of the printed length (warthog prints 6 digits).

With --baseline, an earlier polynav build takes its turn in every round too, and a third table
gives each figure of the polynav under test over the baseline's: a change measured against the
peers and against what it replaced in the same run.

Exit status 1 when any length disagrees, 2 on bad usage or a tool that fails.

    /usr/bin/python3 bench/peer_race.py [--polynav build/release/src/cli/polynav] [--baseline OLD]
        [--warthog-dir /work/peers/warthog-jps] [--polyanya PATH/bin/scenariorunner]
        [--data DIR ...] [--repeat 3] [--jobs grid,mesh] [--maps arena,Aurora,...]
        [--core N] [--out DIR] [--markdown]
"""

import argparse
import concurrent.futures
import csv
import math
import os
import pathlib
import queue
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

GRID_MAPS = ["arena", "den520d", "brc202d", "maze-100-1", "random512-10-0", "lak303d", "Aurora"]
MESHES = ["arena", "arena-merged", "aurora", "aurora-merged"]
# Each polynav grid search against the warthog algorithms that find paths of the same length
# (jps2 and jps2+ add intercardinal pruning to jps and jps+).
GRID_PAIRS = [("astar", ["astar"]), ("jps", ["jps", "jps2"]), ("jps+", ["jps+", "jps2+"])]
DEFAULT_DATA = ["/work/shared/data/movingai", "/work/peers/data"]
RELATIVE_TOLERANCE = 1e-6


@dataclass
class Query:
    us: float          # search time reported by the tool itself
    length: float      # None without a path
    tolerance: float   # how far the printed length may be from the true one


@dataclass
class Tool:
    label: str
    command: object    # (scenario, output path) -> argv
    parse: object      # (output path) -> [Query]
    captures_stdout: bool  # the answers are on stdout, not in a file the tool writes
    ok_codes: tuple = (0,)


@dataclass
class Runs:
    rounds: list = field(default_factory=list)   # [[Query]] per round
    wall: list = field(default_factory=list)     # seconds, full scenario
    first: list = field(default_factory=list)    # seconds, first query only
    rss: list = field(default_factory=list)      # KiB
    codes: set = field(default_factory=set)


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(2)


def need_executable(path, option):
    # Before the first round: a missing peer found in its turn would end a run minutes in.
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        fail(f"{option}: no executable at {path} (build it first: see bench/README.md)")


# ---- the tools -------------------------------------------------------------------------------

def polynav_tool(binary, label, scene, extra):
    def command(scen, out):
        return [binary, "scen", scene, scen, "--csv", out] + extra

    def parse(out):
        with open(out, newline="") as f:
            return [Query(float(r["search_us"]),
                          float(r["length"]) if r["status"] == "found" else None, 0.0)
                    for r in csv.DictReader(f)]

    # Exit 1 is polynav saying a length differs from the .scen's: a finding, still measured.
    return Tool(label, command, parse, False, (0, 1))


def warthog_tool(binary, alg, grid_map):
    def command(scen, out):
        return [binary, "--alg", alg, "--scen", scen, "--map", grid_map]

    def parse(out):
        queries = []
        with open(out) as f:
            next(f)  # header
            for line in f:
                cols = line.split("\t")
                cost = float(cols[9])
                # Costs go through std::ostream's default 6 significant digits.
                tol = 0.5 * 10 ** (math.floor(math.log10(cost)) - 5) if cost > 0 else 0.0
                queries.append(Query(int(cols[7]) / 1000, cost if cost < 1e300 else None, tol))
        return queries

    return Tool(f"warthog {alg}", command, parse, True)


def polyanya_tool(binary, mesh):
    def command(scen, out):
        return [binary, mesh, scen]

    def parse(out):
        queries = []
        with open(out) as f:
            next(f)  # header
            for line in f:
                cols = line.split(";")
                length = float(cols[7])
                queries.append(Query(float(cols[1]), length if length >= 0 else None, 0.0))
        return queries

    return Tool("Polyanya", command, parse, True)


# ---- running ---------------------------------------------------------------------------------

def rss_meter():
    """GNU time's argv prefix, or None.

    A child's ru_maxrss from wait4 is never below this Python process's RSS: the kernel
    carries the high-water mark of the memory the child forked (or vforked) from across exec.
    GNU time forks the tool from its own small process, so it reports the tool's alone.
    """
    time_ = shutil.which("time")
    if time_ is None:
        return None
    probe = subprocess.run([time_, "--version"], capture_output=True, text=True)
    return [time_] if "GNU" in probe.stdout + probe.stderr else None


def run_process(argv, stdout_path, meter):
    """Run argv to completion; return wall seconds, exit code and max RSS (KiB)."""
    rss_path = str(stdout_path) + ".rss"
    if meter:
        argv = meter + ["-f", "%M", "-o", rss_path] + argv
    with open(stdout_path, "wb") as out, open(str(stdout_path) + ".err", "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    rss = usage.ru_maxrss
    if meter:
        # The last line: GNU time writes "Command exited with non-zero status" first.
        rss = int(pathlib.Path(rss_path).read_text().split()[-1])
    return wall, proc.returncode, rss


def first_query_scenario(scen, workdir):
    """A copy of scen holding its header and first query only."""
    lines = [line for line in pathlib.Path(scen).read_text().splitlines() if line.strip()]
    path = pathlib.Path(workdir) / ("first-" + pathlib.Path(scen).name)
    path.write_text(lines[0] + "\n" + lines[1] + "\n")
    return str(path)


def race(name, scen, tools, args, workdir, core):
    """Run every tool args.repeat times on `core`, taking turns; return {label: Runs}."""
    pin = ["taskset", "-c", str(core)] if shutil.which("taskset") else []
    single = first_query_scenario(scen, workdir)
    runs = {tool.label: Runs() for tool in tools}
    for rnd in range(args.repeat):
        for kind, scenario in (("all", scen), ("first", single)):
            for tool in tools:
                print(f"  {name} {tool.label} {kind} {rnd + 1}/{args.repeat}", file=sys.stderr)
                stem = f"{name}-{tool.label.replace(' ', '-')}-{kind}-{rnd}"
                out = pathlib.Path(workdir) / (stem + (".txt" if tool.captures_stdout else ".csv"))
                stdout = out if tool.captures_stdout else out.with_suffix(".log")
                argv = pin + tool.command(scenario, str(out))
                wall, code, rss = run_process(argv, stdout, args.meter)
                if code not in tool.ok_codes:
                    err = pathlib.Path(str(stdout) + ".err").read_text()[-2000:]
                    fail(f"{' '.join(argv)}\nexited {code}:\n{err}")
                r = runs[tool.label]
                r.codes.add(code)
                if kind == "all":
                    r.rounds.append(tool.parse(str(out)))
                    r.wall.append(wall)
                    r.rss.append(rss)
                else:
                    r.first.append(wall)
    return runs


# ---- statistics ------------------------------------------------------------------------------

def percentile(sorted_values, p):
    """Nearest-rank percentile."""
    return sorted_values[max(0, math.ceil(p * len(sorted_values)) - 1)]


def summarise(runs):
    counts = {len(r) for r in runs.rounds}
    if len(counts) != 1:
        fail(f"query counts differ between rounds: {sorted(counts)}")
    best = sorted(min(q.us for q in qs) for qs in zip(*runs.rounds))
    if not best:
        fail("a tool answered no queries")
    first = min(r[0].us for r in runs.rounds)
    median = percentile(best, 0.5)
    return {
        "queries": len(best),
        "mean": sum(best) / len(best),
        "median": median,
        "p95": percentile(best, 0.95),
        "first": first,
        "first/median": first / median if median > 0 else math.inf,
        "wall": min(runs.wall) * 1e3,
        "first answer": min(runs.first) * 1e3,
        "rss": max(runs.rss) / 1024,
    }


def disagreements(ours, theirs):
    """Queries whose lengths differ by more than 1e-6 relative plus the rounding of their printing.

    The rounding adds rather than bounds: warthog's diagonal move costs sqrt(2) rounded to float
    precision (2.4e-8 short), so 100 + 96 sqrt(2) = 235.7645020 comes out a little below
    235.7645 and prints as 235.764, half a unit plus 2e-6 from the exact length.
    """
    count = abs(len(ours) - len(theirs))
    for a, b in zip(ours, theirs):
        if a.length is None or b.length is None:
            count += (a.length is None) != (b.length is None)
            continue
        tol = (RELATIVE_TOLERANCE * max(abs(a.length), abs(b.length))
               + a.tolerance + b.tolerance)
        count += abs(a.length - b.length) > tol
    return count


# ---- the jobs --------------------------------------------------------------------------------

def find_data(dirs, name):
    for d in dirs:
        path = pathlib.Path(d) / name
        if path.is_file():
            return str(path)
    fail(f"{name} not found in {', '.join(dirs)} (see --data)")


def selected(names, wanted):
    if not wanted:
        return names
    return [n for n in names if n.lower() in wanted]


def race_unit(name, scen, ours, before, theirs, args, workdir):
    """One race as a unit of work: core -> its table rows."""
    def unit(core):
        runs = race(name, scen, [ours] + before + theirs, args, workdir, core)
        return pair_rows(name.removeprefix("mesh-").rsplit("@", 1)[0], ours, before, theirs, runs)
    return unit


def grid_job(args, workdir):
    """The grid races, one unit per map and search."""
    warthog_jps = os.path.join(args.warthog_dir, "build", "warthog-jps")
    warthog_core = os.path.join(args.warthog_dir, "build", "extern", "warthog-core", "warthog")
    need_executable(warthog_jps, "--warthog-dir")
    need_executable(warthog_core, "--warthog-dir")
    units = []
    for name in selected(GRID_MAPS, args.maps):
        grid_map = find_data(args.data, name + ".map")
        scen = find_data(args.data, name + ".map.scen")
        for search, peers in GRID_PAIRS:
            extra = ["--set", f"grid.search={search}"]
            ours = polynav_tool(args.polynav, f"polynav {search}", grid_map, extra)
            before = baseline_tool(args, f"polynav {search}", grid_map, extra)
            theirs = [warthog_tool(warthog_core if alg == "astar" else warthog_jps, alg, grid_map)
                      for alg in peers]
            units.append(race_unit(f"{name}@{search}", scen, ours, before, theirs, args, workdir))
    return units


def mesh_job(args, workdir):
    """The mesh races, one unit per mesh."""
    units = []
    for name in selected(MESHES, args.maps):
        mesh = find_data(args.data, name + ".mesh")
        # A merged mesh covers the same free space, so it takes the unmerged mesh's queries.
        scen = find_data(args.data, name.removesuffix("-merged") + ".scen")
        # Polyanya's scenarios keep the 8-connected grid lengths in column 9: declaring them
        # grid lengths stops polynav from calling its shorter Euclidean paths mismatches.
        extra = ["--method", "navmesh", "--set", "navmesh.search=optimal", "--reference", "grid"]
        ours = polynav_tool(args.polynav, "polynav navmesh", mesh, extra)
        before = baseline_tool(args, "polynav navmesh", mesh, extra)
        theirs = [polyanya_tool(args.polyanya, mesh)]
        units.append(race_unit(f"mesh-{name}", scen, ours, before, theirs, args, workdir))
    return units


def run_units(units, cores):
    """Each unit's rows, in order; with several cores, units run at once, each on a core of its
    own (the tools of a race still take turns on that core)."""
    if len(cores) == 1:
        return [unit(cores[0]) for unit in units]
    free = queue.Queue()
    for core in cores:
        free.put(core)

    def on_a_free_core(unit):
        core = free.get()
        try:
            return unit(core)
        finally:
            free.put(core)

    with concurrent.futures.ThreadPoolExecutor(max_workers=len(cores)) as pool:
        return [f.result() for f in [pool.submit(on_a_free_core, u) for u in units]]


def baseline_tool(args, label, scene, extra):
    """The baseline build's tool, as a list of one (none without --baseline)."""
    if not args.baseline:
        return []
    tool = polynav_tool(args.baseline, label.replace("polynav", "baseline", 1), scene, extra)
    return [tool]


def pair_rows(name, ours, before, theirs, runs):
    mine = summarise(runs[ours.label])
    baseline = summarise(runs[before[0].label]) if before else None
    return [{"map": name, "polynav": ours.label.removeprefix("polynav "), "peer": t.label,
             "ours": mine, "theirs": summarise(runs[t.label]), "baseline": baseline,
             "disagree": disagreements(runs[ours.label].rounds[0], runs[t.label].rounds[0]),
             "codes": (sorted(runs[ours.label].codes), sorted(runs[t.label].codes))}
            for t in theirs]


# ---- reporting -------------------------------------------------------------------------------

def num(x):
    """Three significant digits, no exponent for the sizes seen here."""
    if x == 0 or not math.isfinite(x):
        return str(x)
    digits = max(0, 2 - math.floor(math.log10(abs(x))))
    return f"{x:.{digits}f}"


def versus(row, key):
    a, b = row["ours"][key], row["theirs"][key]
    ratio = a / b if b > 0 else math.inf
    return f"{num(a)} / {num(b)} ({num(ratio)}x)"


def table(headers, body, markdown):
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        lines += ["| " + " | ".join(r) + " |" for r in body]
        return "\n".join(lines)
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *body)]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
                     for r in [headers] + body)


def report(title, rows, markdown):
    key = lambda r: [r["map"], r["polynav"], r["peer"]]
    search = table(
        ["map", "polynav", "peer", "queries", "mean us", "median us", "p95 us",
         "first query us", "first / median"],
        [key(r) + [str(r["ours"]["queries"]), versus(r, "mean"), versus(r, "median"),
                   versus(r, "p95"), versus(r, "first"),
                   f"{num(r['ours']['first/median'])} / {num(r['theirs']['first/median'])}"]
         for r in rows], markdown)
    process = table(
        ["map", "polynav", "peer", "wall ms", "to first answer ms", "max RSS MiB",
         "length disagreements"],
        [key(r) + [versus(r, "wall"), versus(r, "first answer"), versus(r, "rss"),
                   str(r["disagree"])] for r in rows], markdown)
    hash_ = "### " if markdown else ""
    before = []
    if rows and rows[0]["baseline"] is not None:
        # One row per polynav configuration: the peers of a pair share the same two polynav runs.
        seen = set()
        keys = ["mean", "median", "p95", "first", "wall", "first answer", "rss"]
        body = []
        for r in rows:
            if (r["map"], r["polynav"]) in seen:
                continue
            seen.add((r["map"], r["polynav"]))
            cells = []
            for k in keys:
                a, b = r["ours"][k], r["baseline"][k]
                cells.append(f"{num(a)} / {num(b)} ({num(a / b if b > 0 else math.inf)}x)")
            body.append([r["map"], r["polynav"]] + cells)
        before = [f"{hash_}{title}: polynav / baseline (ratio)",
                  table(["map", "polynav", "mean us", "median us", "p95 us", "first query us",
                         "wall ms", "to first answer ms", "max RSS MiB"], body, markdown)]
    notes = [f"- {r['map']}: polynav {r['polynav']} exited {r['codes'][0]}, "
             f"{r['peer']} {r['codes'][1]}" for r in rows if r["codes"] != ([0], [0])]
    parts = [f"{hash_}{title}: search (polynav / peer (ratio))", search,
             f"{hash_}{title}: process (polynav / peer (ratio))", process] + before
    if notes:
        parts.append("exit codes other than 0:\n" + "\n".join(notes))
    return "\n\n".join(parts)


def git_state(directory, pathspec=None, own=False):
    """Commit of the repository holding directory, with a note of uncommitted changes; with
    `own` (a peer), none when that repository is this script's (a peer's copy carried inside
    polynav's checkout has no commit of its own)."""
    def git(*cmd):
        done = subprocess.run(["git", "-C", str(directory), *cmd], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else None

    head = git("rev-parse", "HEAD")
    if head is None:
        return "unknown (not in a git repository)"
    top = git("rev-parse", "--show-toplevel")
    if own and pathlib.Path(top).resolve() == pathlib.Path(__file__).resolve().parent.parent:
        return "unknown (a copy inside polynav's checkout)"
    changed = git("diff", "--name-only", "HEAD", "--", *(pathspec or []))
    if changed:
        files = changed.splitlines()
        more = f" and {len(files) - 3} more" if len(files) > 3 else ""
        return f"{head} + uncommitted changes to {', '.join(files[:3])}{more}"
    return head


def header(args, markdown):
    binary = pathlib.Path(args.polynav).resolve()
    polynav = git_state(binary.parent)
    head_time = subprocess.run(["git", "-C", str(binary.parent), "log", "-1", "--format=%ct"],
                               capture_output=True, text=True).stdout.strip()
    if head_time and binary.stat().st_mtime < int(head_time):
        polynav += " (binary older than that commit)"
    cpu = "unknown"
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    polyanya_dir = pathlib.Path(args.polyanya).resolve().parent.parent
    cores = ",".join(map(str, args.cores))
    pin = (f"taskset -c {cores}" + (" (a race per core, several at once)" if len(args.cores) > 1
                                    else "")) if shutil.which("taskset") else "none (no taskset)"
    rss = ("GNU time's %M" if args.meter else
           "wait4 (no GNU time: never below this driver's own RSS)")
    lines = [
        f"polynav: {binary} at {polynav}",
        f"baseline: {pathlib.Path(args.baseline).resolve() if args.baseline else 'none'}",
        f"warthog-jps: {git_state(args.warthog_dir, own=True)}",
        f"warthog-core: "
        f"{git_state(os.path.join(args.warthog_dir, 'extern', 'warthog-core'), own=True)}",
        f"Polyanya: {polyanya_dir} at {git_state(polyanya_dir, ['.'], own=True)}",
        f"CPU: {cpu}, {os.cpu_count()} cores; pinned: {pin}; rounds: {args.repeat}; "
        f"max RSS: {rss}",
        "load average (1, 5, 15 min) at start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()),
    ]
    prefix = "- " if markdown else ""
    return "\n".join(prefix + line for line in lines)


def core_list(text, parser):
    """'2-15' or '2,4,6' (or both, comma-separated) as a list of core numbers."""
    cores = []
    try:
        for part in text.split(","):
            first, _, last = part.partition("-")
            cores += list(range(int(first), int(last or first) + 1))
    except ValueError:
        parser.error(f"--cores: expected a list such as 2-15 or 2,4,6, found {text!r}")
    if not cores or len(set(cores)) != len(cores) or min(cores) < 0:
        parser.error(f"--cores: expected distinct core numbers, found {text!r}")
    return cores


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--polynav", default="/work/main/build/release/src/cli/polynav",
                        help="the polynav command line to race (a Release build)")
    parser.add_argument("--baseline",
                        help="an earlier polynav build raced in the same rounds (optional)")
    parser.add_argument("--warthog-dir", default="/work/peers/warthog-jps",
                        help="warthog-jps checkout built in build/, warthog-core in extern/")
    parser.add_argument("--polyanya",
                        default="/work/peers/polyanya-src/anyangle/polyanya/bin/scenariorunner",
                        help="Polyanya's scenariorunner (built with 'make fast')")
    parser.add_argument("--data", action="append",
                        help="directory of maps, meshes and scenarios (repeatable, searched in "
                             f"order; default {' then '.join(DEFAULT_DATA)})")
    parser.add_argument("--repeat", type=int, default=3,
                        help="rounds; each query keeps its fastest (default 3)")
    parser.add_argument("--jobs", default="grid,mesh",
                        help="grid (warthog), mesh (Polyanya) or both (default)")
    parser.add_argument("--maps", help="comma-separated map or mesh names (any case); default all")
    parser.add_argument("--core", type=int, default=os.cpu_count() - 1,
                        help="the core every process is pinned to (default the last)")
    parser.add_argument("--cores",
                        help="races at once, one per core of this list (e.g. 2-15 or 2,4,6), "
                             "instead of all on --core; each race's tools still take turns")
    parser.add_argument("--out", help="keep every tool's raw output in this directory")
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    args = parser.parse_args()
    args.data = args.data or DEFAULT_DATA
    args.meter = rss_meter()
    args.maps = {m.strip().lower() for m in args.maps.split(",")} if args.maps else None
    args.cores = core_list(args.cores, parser) if args.cores else [args.core]
    jobs = [j.strip() for j in args.jobs.split(",")]
    if args.repeat < 1 or not set(jobs) <= {"grid", "mesh"}:
        parser.error("--repeat must be at least 1 and --jobs a list of grid, mesh")
    if args.maps and not args.maps & {m.lower() for m in GRID_MAPS + MESHES}:
        parser.error(f"--maps matches none of {', '.join(GRID_MAPS + MESHES)}")
    need_executable(args.polynav, "--polynav")
    if args.baseline:
        need_executable(args.baseline, "--baseline")
    if "mesh" in jobs:
        need_executable(args.polyanya, "--polyanya")

    started = time.perf_counter()
    print(header(args, args.markdown) + "\n")
    with tempfile.TemporaryDirectory() as scratch:
        workdir = args.out or scratch
        os.makedirs(workdir, exist_ok=True)
        units = {job: (grid_job if job == "grid" else mesh_job)(args, workdir) for job in jobs}
        # Every job's units in one pool, the longest (the grid's, listed first) starting first.
        everything = [u for job in jobs for u in units[job]]
        results = iter(run_units(everything, args.cores))
        total = 0
        for job in jobs:
            rows = [row for _ in units[job] for row in next(results)]
            if rows:
                print(report(job, rows, args.markdown) + "\n", flush=True)
                total += sum(r["disagree"] for r in rows)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"length disagreements: {total}; load average at end: {load}; "
          f"took {time.perf_counter() - started:.1f} s")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
