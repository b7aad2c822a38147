#!/usr/bin/env python3
"""Timing half of scripts/bench: runs the commands, prints issue #16's table.

Called by scripts/bench with the paths it built and generated; not meant to be run alone.
Every case is run N times, interleaved with the baselines in a shuffled order each round, so
drift from other load on the machine hits all of them alike; slow cases (cold reads of large
circles) run their runs after that, each between two runs of the floor. Wall time is measured
around posix_spawn + wait4. A cold case deletes cache.bin before each run, outside the timed
span. Peak memory is the child's ru_maxrss from wait4 (KiB on Linux), taken in separate runs
through scripts/bench's tiny static launcher (rss-run): a child started straight from Python
inherits Python's ~15 MiB high-water mark, which Linux carries across exec into ru_maxrss.

Baselines:
  floor      a hello-world Swift program built the plainest way (swiftc -O, dynamic), stripped
  hello-s    the same hello-world built with lifesignal's shipping flags (static executable)
  physical   a C program doing what a check-in cannot avoid: write 4 KiB, fsync, rename,
             fsync the directory
"""

import argparse
import math
import os
import platform
import random
import subprocess
import sys
import time

NOW = "2026-03-01T09:00:00Z"


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--lifesignal", required=True)
    p.add_argument("--hello-dynamic", required=True)
    p.add_argument("--hello-static", required=True)
    p.add_argument("--physical", required=True)
    p.add_argument("--physical-dir", required=True)
    p.add_argument("--stores", required=True, help="directory holding the generated stores")
    p.add_argument("--large", type=int, default=1)
    p.add_argument("--peer", default="", help="the deadman-switch peer's dms, or empty")
    p.add_argument("--peer-home", default="")
    p.add_argument("--runs", type=int, default=200)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--rss-run", required=True, help="launcher printing '<exit> <ru_maxrss KiB>' of its child")
    p.add_argument("--memory-runs", type=int, default=5)
    return p.parse_args()


class Case:
    def __init__(self, name, store, argv, home, runs, cold=False, separate=False, extra_env=None):
        self.name = name
        self.store = store
        self.argv = argv
        self.home = home
        self.runs = runs
        self.cold = cold  # cache.bin is deleted before each run (not timed)
        self.separate = separate  # timed after the interleaved rounds
        self.extra_env = extra_env or {}
        self.times_ns = []
        self.peak_kib = 0

    def env(self):
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb", "LIFESIGNAL_NOW": NOW}
        if self.home:
            env["LIFESIGNAL_HOME"] = self.home
            env["HOME"] = self.home
        env.update(self.extra_env)
        return env

    def prepare(self):
        if self.cold:
            try:
                os.unlink(os.path.join(self.home, "cache.bin"))
            except FileNotFoundError:
                pass

    @property
    def median(self):
        return percentile(sorted(self.times_ns), 50)


def spawn(case, devnull):
    """Runs the case once with stdout/stderr on /dev/null; returns (ns, exit code)."""
    case.prepare()
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    env = case.env()
    start = time.perf_counter_ns()
    pid = os.posix_spawn(case.argv[0], case.argv, env, file_actions=actions)
    _, status, _ = os.wait4(pid, 0)
    elapsed = time.perf_counter_ns() - start
    return elapsed, os.waitstatus_to_exitcode(status)


def peak_kib(case, rss_run):
    case.prepare()
    r = subprocess.run([rss_run] + case.argv, env=case.env(), capture_output=True, text=True, check=True)
    code, kib = r.stdout.split()
    return int(code), int(kib)


def percentile(sorted_values, q):
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, int(-(-q * len(sorted_values) // 100)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def run_case(case, devnull):
    ns, code = spawn(case, devnull)
    if code != 0:
        r = subprocess.run(case.argv, env=case.env(), capture_output=True, text=True)
        print(f"bench: {' '.join(case.argv)} ({case.store}) exited {code}: {r.stderr.strip()[:300]}", file=sys.stderr)
        sys.exit(2)
    case.times_ns.append(ns)


def main():
    a = parse_args()
    ls, st, R = a.lifesignal, a.stores, a.runs
    store = lambda name: os.path.join(st, name)  # noqa: E731
    floor = Case("hello-world", "floor", [a.hello_dynamic], None, R)
    hello_s = Case("hello-world", "hello-s", [a.hello_static], None, R)
    physical = Case("write+fsync+rename+fsync", "physical", [a.physical, a.physical_dir], None, R)
    c = {
        "status 1y": Case("status", "one-year", [ls, "status"], store("one-year"), R),
        "checkin": Case("checkin", "typical", [ls, "checkin"], store("typical-write"), R),
        "status cold 1k": Case("status (cold)", "circle-1000", [ls, "status"], store("circle-1000"), 40,
                               cold=True, separate=True),
        "status warm 1k": Case("status (warm)", "circle-1000", [ls, "status"], store("circle-1000"), R),
        "status warm coord": Case("status (warm)", "coordinator-1000", [ls, "status"], store("coordinator-1000"), R),
        "checkin 1k": Case("checkin", "circle-1000", [ls, "checkin"], store("circle-1000-write"), R),
        "checkin crowd": Case("checkin", "crowd-1000", [ls, "checkin"], store("crowd-1000-write"), R),
        "history 1": Case("checkin history", "typical", [ls, "checkin", "history"], store("typical"), R),
        "history 1k": Case("checkin history", "circle-1000", [ls, "checkin", "history"], store("circle-1000"), R),
        "deliver 1y": Case("notify deliver", "one-year", [ls, "notify", "deliver"], store("one-year"), R),
        "deliver 10y": Case("notify deliver", "ten-year", [ls, "notify", "deliver"], store("ten-year"), R),
    }
    if a.large:
        c["status cold 10k"] = Case("status (cold)", "circle-10000", [ls, "status"], store("circle-10000"), 8,
                                    cold=True, separate=True)
        c["status warm 10k"] = Case("status (warm)", "circle-10000", [ls, "status"], store("circle-10000"), 20,
                                    separate=True)
    peer = []
    if a.peer:
        env = {"HOME": a.peer_home}
        peer = [Case("dms status", "peer", [a.peer, "status"], None, R // 4, extra_env=env),
                Case("dms heartbeat", "peer", [a.peer, "heartbeat"], None, R // 4, extra_env=env)]
    cases = [floor, hello_s, physical] + list(c.values()) + peer

    devnull = os.open(os.devnull, os.O_WRONLY)
    for case in cases:
        run_case(case, devnull)  # each works before anything is timed
        case.times_ns.clear()
    for _ in range(a.warmup):
        for case in cases:
            if not case.separate:
                run_case(case, devnull)
                case.times_ns.clear()

    rng = random.Random(20261125)
    load_before = os.getloadavg()
    started = time.monotonic()
    while True:
        order = [x for x in cases if not x.separate and len(x.times_ns) < x.runs]
        if not order:
            break
        rng.shuffle(order)
        for case in order:
            run_case(case, devnull)
    for case in cases:
        while case.separate and len(case.times_ns) < case.runs:
            run_case(floor, devnull)
            run_case(case, devnull)
    took = time.monotonic() - started
    load_after = os.getloadavg()
    for _ in range(a.memory_runs):
        for case in cases:
            code, kib = peak_kib(case, a.rss_run)
            case.peak_kib = max(case.peak_kib, kib)

    f, hs, ph = floor.median, hello_s.median, physical.median
    print(f"Machine: {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {cpu_model()}, "
          f"{platform.system()} {platform.release()}")
    print(f"Load average before/after timing: {load_before[0]:.2f} / {load_after[0]:.2f}")
    print(f"{R} runs per interleaved case in shuffled rounds after {a.warmup} warm-up rounds; "
          f"cold and 10,000-member cases ran their runs after that, each beside a floor run; "
          f"{took:.1f} s of timing. LIFESIGNAL_NOW={NOW}.")
    print("Ratios: × floor = to the plain hello-world (swiftc -O), × hello-s = to the hello-world with the shipping "
          "flags, × phys = to the physical limit of a check-in. Peak memory: max ru_maxrss of "
          f"{a.memory_runs} runs through a static launcher.")
    print()
    header = (f"{'operation':26} {'store':13} {'runs':>4} {'median ms':>9} {'p90 ms':>7} "
              f"{'× floor':>8} {'× hello-s':>9} {'× phys':>7} {'peak MiB':>8}")
    print(header)
    print("-" * len(header))
    for case in cases:
        s = sorted(case.times_ns)
        med = percentile(s, 50)
        print(f"{case.name:26} {case.store:13} {len(s):4d} {med / 1e6:9.2f} {percentile(s, 90) / 1e6:7.2f} "
              f"{med / f:7.2f}× {med / hs:8.2f}× {med / ph:6.2f}× {case.peak_kib / 1024:8.1f}")

    # Issue #16's table: each target, what it is measured against, and the figure.
    rows = []

    def row(what, figure, target, ok):
        rows.append((what, figure, target, ok))

    m = lambda key: c[key].median  # noqa: E731
    mib = lambda key: c[key].peak_kib / 1024  # noqa: E731
    row("status, one person, a year of history", f"{m('status 1y') / f:.2f}× floor ({m('status 1y') / hs:.2f}× hello-s)",
        "≤ 1.0× floor", m("status 1y") / f <= 1.0)
    # Issue #28: a check-in is a process start and a durable write; its limit is the static
    # hello-world plus the C program's crash-safe replace, both measured here. Issue #45 let it
    # rise from 1.25× to 1.35× for a log verified on every read and written whole.
    limit = hs + ph
    row("checkin", f"{m('checkin') / limit:.2f}× (hello-s + physical) ({m('checkin') / ph:.2f}× physical)",
        "≤ 1.35× hello-s + phys", m("checkin") / limit <= 1.35)
    row("checkin, 1,000 members", f"{m('checkin 1k') / m('checkin'):.2f}× one person", "≤ 1.5× one person",
        m("checkin 1k") / m("checkin") <= 1.5)
    # Beside it, not a target: a circle of 1,000 where the member is linked with 10, as in the
    # one-person store (the row above is linked with 120): what the circle's size costs, apart
    # from the member's own links.
    row("checkin, 1,000 members, linked with 10", f"{m('checkin crowd') / m('checkin'):.2f}× one person",
        "(beside the row above)", None)
    # Issue #26: a cold read checks the signatures of the 100 linked members' logs.
    row("status cold, 1,000 members", f"{m('status cold 1k') / f:.1f}× floor, {mib('status cold 1k'):.1f} MiB",
        "≤ 12× floor, ≤ 12 MiB", m("status cold 1k") / f <= 12 and mib("status cold 1k") <= 12)
    row("status warm, 1,000 members", f"{m('status warm 1k') / f:.2f}× floor", "≤ 1.5× floor",
        m("status warm 1k") / f <= 1.5)
    row("status warm, coordinator of 100 in 1,000", f"{m('status warm coord') / f:.2f}× floor", "≤ 1.5× floor",
        m("status warm coord") / f <= 1.5)
    row("checkin history, 1,000 members", f"{m('history 1k') / m('history 1'):.2f}× one person", "≤ 1.2× one person",
        m("history 1k") / m("history 1") <= 1.2)
    slope = math.log(m("deliver 10y") / m("deliver 1y")) / math.log(10)
    row("notify deliver, ten years, nothing pending",
        f"{m('deliver 10y') / f:.2f}× floor, {mib('deliver 10y'):.1f} MiB, slope {slope:.2f} from 1 to 10 years",
        "≤ 2× floor, slope ≤ 1.0", m("deliver 10y") / f <= 2 and slope <= 1.0)
    if a.large:
        row("10,000 members (scale probe)",
            f"cold {m('status cold 10k') / m('status cold 1k'):.1f}× the 1,000-member cold time "
            f"({m('status cold 10k') / f:.0f}× floor), warm {m('status warm 10k') / f:.1f}× floor",
            "cold ≤ 10× the 1,000-member time", m("status cold 10k") / m("status cold 1k") <= 10)
    if peer:
        row("peer: deadman-switch 0.2.0 status", f"{peer[0].median / m('status 1y'):.1f}× lifesignal status (one year)",
            "(side by side)", None)
        row("peer: deadman-switch 0.2.0 heartbeat", f"{peer[1].median / m('checkin'):.1f}× lifesignal checkin",
            "(side by side)", None)
    print()
    width = max(len(r[0]) for r in rows)
    print(f"{'target (issues #16, #26, #28, #45)':{width}}  {'measured':58} {'target':24} result")
    failed = 0
    for what, figure, target, ok in rows:
        result = "" if ok is None else ("met" if ok else "NOT MET")
        failed += 1 if ok is False else 0
        print(f"{what:{width}}  {figure:58} {target:24} {result}")
    print()
    spread = percentile(sorted(floor.times_ns), 90) / f
    if spread > 1.5 or max(load_before[0], load_after[0]) > (os.cpu_count() or 1):
        print(f"WARNING: this run looks disturbed (floor p90/median {spread:.2f}, load {load_before[0]:.1f}/"
              f"{load_after[0]:.1f} on {os.cpu_count()} CPUs). Re-run on a quieter machine before trusting it.")
    print(f"{failed} target(s) not met." if failed else "All targets met.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
