#!/usr/bin/env python3
"""Timing half of scripts/bench: runs the commands, prints the table.

Called by scripts/bench with the paths it built and generated; not meant to be run alone.
Every case is run N times, interleaved with the floor (a hello-world Swift binary built with
the same flags) in a shuffled order each round, so drift from other load on the machine hits
all of them alike. Wall time is measured around posix_spawn + wait4; peak memory is the
child's ru_maxrss from wait4 (KiB on Linux), taken in separate runs through scripts/bench's tiny
static launcher (rss-run): a child started straight from Python inherits Python's ~15 MiB
high-water mark, which Linux carries across exec into ru_maxrss (exec_mmap records the old
mm's hiwater_rss), so every command, even /bin/true, would show ~15 MiB.
"""

import argparse
import os
import platform
import random
import sys
import time

NOW = "2026-03-01T09:00:00Z"


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--lifesignal", required=True)
    p.add_argument("--floor", required=True)
    p.add_argument("--typical", required=True, help="typical store (read benchmarks)")
    p.add_argument("--typical-write", required=True, help="copy of the typical store (write benchmark)")
    p.add_argument("--ten-year", required=True)
    p.add_argument("--ten-year-write", required=True)
    p.add_argument("--read-runs", type=int, default=300)
    p.add_argument("--write-runs", type=int, default=150)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--rss-run", required=True, help="launcher printing '<exit> <ru_maxrss KiB>' of its child")
    p.add_argument("--memory-runs", type=int, default=10)
    return p.parse_args()


class Case:
    def __init__(self, command, store, argv, home, runs, target, expect_exit=0, informational=False, note="", separate=False):
        self.command = command
        self.store = store
        self.argv = argv
        self.home = home
        self.runs = runs
        self.target = target  # maximum ratio to the floor median, or None
        self.expect_exit = expect_exit
        self.informational = informational
        self.note = note
        # Timed after the interleaved rounds, not among them: a slow case would disturb them.
        self.separate = separate
        self.times_ns = []
        self.peak_kib = 0

    def env(self):
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb", "LIFESIGNAL_NOW": NOW}
        if self.home:
            env["LIFESIGNAL_HOME"] = self.home
            env["HOME"] = self.home
        return env


def spawn(case, devnull):
    """Runs the case once with stdout/stderr on /dev/null; returns (ns, exit code, maxrss KiB)."""
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    env = case.env()
    start = time.perf_counter_ns()
    pid = os.posix_spawn(case.argv[0], case.argv, env, file_actions=actions)
    _, status, _ = os.wait4(pid, 0)
    elapsed = time.perf_counter_ns() - start
    return elapsed, os.waitstatus_to_exitcode(status)


def peak_kib(case, rss_run):
    """One run through the launcher; returns (exit code, child's ru_maxrss in KiB)."""
    import subprocess

    r = subprocess.run([rss_run] + case.argv, env=case.env(), capture_output=True, text=True, check=True)
    code, kib = r.stdout.split()
    return int(code), int(kib)


def check_once(case):
    """One run with output captured, to show it works before timing it."""
    import subprocess

    r = subprocess.run(case.argv, env=case.env(), capture_output=True, text=True)
    first = (r.stdout.strip().splitlines() or [""])[0]
    err = r.stderr.strip()
    return r.returncode, first, err


def percentile(sorted_values, q):
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, int(-(-q * len(sorted_values) // 100)))  # ceil(q/100 * n)
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


def main():
    a = parse_args()
    ls = a.lifesignal
    R, W = a.read_runs, a.write_runs
    cases = [
        Case("floor (hello)", "-", [a.floor], None, R, None),
        Case("status", "typical", [ls, "status"], a.typical, R, 1.5),
        Case("checkin status", "typical", [ls, "checkin", "status"], a.typical, R, 1.5),
        Case("checkin", "typical", [ls, "checkin"], a.typical_write, W, 3.0),
        Case("status", "ten-year", [ls, "status"], a.ten_year, R, 3.0),
        Case("checkin status", "ten-year", [ls, "checkin", "status"], a.ten_year, R, 3.0),
        Case("checkin", "ten-year", [ls, "checkin"], a.ten_year_write, W, 5.0),
        # No time target, but the memory limit holds: the feed of 10,000 notifications read
        # whole (notify list notices what is due, so it takes the lock and reads the feed).
        Case("notify list", "ten-year", [ls, "notify", "list"], a.ten_year, 20, None, informational=True,
             note="(info: reads 10,000 notifications)", separate=True),
        # Not targets: they split the cost. --version is lifesignal's start-up without the
        # store; /bin/true is the harness's fork+exec.
        Case("--version", "-", [ls, "--version"], None, R, None, informational=True, note="(info: no store)"),
        Case("/bin/true", "-", ["/bin/true"], None, R, None, informational=True, note="(info: fork+exec)"),
    ]

    print("Sanity run of each command (first line of stdout, exit code):")
    for c in cases:
        code, first, err = check_once(c)
        note = f"  stderr: {err[:160]}" if err else ""
        print(f"  {c.command:16} {c.store:9} exit {code}  {first[:70]!r}{note}")
        if code != c.expect_exit:
            print(f"bench: {' '.join(c.argv)} exited {code}, expected {c.expect_exit}", file=sys.stderr)
            return 2

    devnull = os.open(os.devnull, os.O_WRONLY)
    rng = random.Random(20260301)
    load_before = os.getloadavg()

    for _ in range(a.warmup):
        for c in cases:
            spawn(c, devnull)

    started = time.monotonic()
    rounds = max(c.runs for c in cases if not c.separate)
    for _ in range(rounds):
        order = [c for c in cases if len(c.times_ns) < c.runs and not c.separate]
        rng.shuffle(order)
        for c in order:
            ns, code = spawn(c, devnull)
            if code != c.expect_exit:
                print(f"bench: {' '.join(c.argv)} exited {code} during timing", file=sys.stderr)
                return 2
            c.times_ns.append(ns)
    took = time.monotonic() - started
    for c in cases:
        while c.separate and len(c.times_ns) < c.runs:
            ns, code = spawn(c, devnull)
            if code != c.expect_exit:
                print(f"bench: {' '.join(c.argv)} exited {code} during timing", file=sys.stderr)
                return 2
            c.times_ns.append(ns)
    load_after = os.getloadavg()

    for _ in range(a.memory_runs):
        for c in cases:
            code, kib = peak_kib(c, a.rss_run)
            if code != c.expect_exit:
                print(f"bench: {' '.join(c.argv)} exited {code} during the memory runs", file=sys.stderr)
                return 2
            c.peak_kib = max(c.peak_kib, kib)

    floor = cases[0]
    floor_sorted = sorted(floor.times_ns)
    floor_median = percentile(floor_sorted, 50)

    print()
    print(f"Machine: {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {cpu_model()}, "
          f"{platform.system()} {platform.release()}")
    print(f"Load average before/after timing: {load_before[0]:.2f} / {load_after[0]:.2f} "
          f"(other work on the machine makes absolute times noisy; the ratios are what count)")
    print(f"Runs: {R} per read case and the floor, {W} per write case, interleaved in shuffled order "
          f"after {a.warmup} warm-up rounds; {took:.1f} s of timing. LIFESIGNAL_NOW={NOW}. "
          f"Cases marked separately timed ran their runs after that: "
          f"{', '.join(f'{c.command} ({c.runs})' for c in cases if c.separate) or 'none'}.")
    print(f"Peak memory: max ru_maxrss over {a.memory_runs} further runs per case through a static launcher "
          f"(the /bin/true row shows the launcher's own share, an upper bound on the bias).")
    print()
    header = f"{'command':16} {'store':9} {'runs':>5} {'median ms':>10} {'p90 ms':>8} {'× floor':>8} {'target':>8} {'peak MiB':>9} {'< 30 MiB':>9}  result"
    print(header)
    print("-" * len(header))
    failures = 0
    for c in cases:
        s = sorted(c.times_ns)
        med = percentile(s, 50)
        p90 = percentile(s, 90)
        ratio = med / floor_median
        mib = c.peak_kib / 1024
        mem_ok = mib < 30
        if c is floor or c.informational:
            failures += 0 if mem_ok else 1
            note = "(baseline)" if c is floor else c.note
            target, result, memcol = "", note if mem_ok else "FAIL (memory)", f"{'ok' if mem_ok else 'over'}"
            ratio_text = f"{ratio:7.2f}×"
        else:
            ok = ratio <= c.target and mem_ok
            failures += 0 if ok else 1
            target = f"≤ {c.target:g}×"
            result = "PASS" if ok else "FAIL" + ("" if ratio <= c.target else " (time)") + ("" if mem_ok else " (memory)")
            memcol = "ok" if mem_ok else "over"
            ratio_text = f"{ratio:7.2f}×"
        print(f"{c.command:16} {c.store:9} {len(s):5d} {med / 1e6:10.2f} {p90 / 1e6:8.2f} {ratio_text:>8} {target:>8} {mib:9.1f} {memcol:>9}  {result}")
    print()
    print("Targets (design.md): typical status and checkin status ≤ 1.5× floor, checkin ≤ 3×; ten-year status ≤ 3× "
          "(checkin status held to the same), checkin ≤ 5×; peak memory < 30 MiB.")
    spread = percentile(floor_sorted, 90) / floor_median
    if spread > 1.5 or max(load_before[0], load_after[0]) > (os.cpu_count() or 1):
        print(f"WARNING: this run looks disturbed (floor p90/median {spread:.2f}, load {load_before[0]:.1f}/{load_after[0]:.1f} "
              f"on {os.cpu_count()} CPUs); other processes compete for the CPUs. Re-run on a quieter machine before trusting it.")
    print(f"{failures} target(s) failed." if failures else "All targets met.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
