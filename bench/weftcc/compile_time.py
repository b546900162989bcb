#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compile time of weftcc against hipcc (issue 14: target <= 2x).

  compile_time.py WEFTCC SOURCE [--runs N] [--targets gfx90a,sm_90,x86_64] [--hipcc PATH]

Compiles SOURCE (-O2 -c) with `hipcc --offload-arch=gfx90a` and with weftcc for every
target of --targets that weftcc can build here (each target is tried once first; one it
cannot build is reported with the reason and left out), alternating the two so that both
see the same machine load, and prints a table of medians and the ratio. Also times
weftcc for each target alone. Exit 77 (skip) when neither side can compile."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    return time.perf_counter() - start, proc


def first_error(text):
    lines = [l for l in text.splitlines() if "error" in l.lower()]
    return (lines or text.strip().splitlines() or ["(no output)"])[0][:200]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("weftcc")
    ap.add_argument("source")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--targets", default="gfx90a,sm_90,x86_64")
    ap.add_argument("--hipcc", default=shutil.which("hipcc") or "")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="weftcc-bench-")
    out = os.path.join(tmp, "k.o")
    env_note = f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start"
    print(f"weftcc compile-time benchmark: {os.path.basename(args.source)}, -O2 -c, "
          f"median of {args.runs} runs; {env_note}")

    hipcc_cmd = None
    if not args.hipcc:
        print("hipcc: SKIPPED (not installed; Debian package hipcc)")
    else:
        _, proc = timed([args.hipcc, "--offload-arch=gfx90a", "-O2", "-c", args.source, "-o", out])
        if proc.returncode != 0:
            print(f"hipcc: SKIPPED (cannot compile the source: {first_error(proc.stdout)})")
        else:
            hipcc_cmd = [args.hipcc, "--offload-arch=gfx90a", "-O2", "-c", args.source, "-o", out]

    available = []
    for target in [t for t in args.targets.split(",") if t]:
        _, proc = timed([args.weftcc, f"--offload-arch={target}", "-O2", "-c", args.source, "-o", out])
        if proc.returncode == 0:
            available.append(target)
        else:
            print(f"weftcc target {target}: SKIPPED ({first_error(proc.stdout)})")
    builds = []
    if hipcc_cmd:
        builds.append(("hipcc", "gfx90a", hipcc_cmd))
    if available:
        builds.append(("weftcc", ",".join(available),
                       [args.weftcc, f"--offload-arch={','.join(available)}", "-O2", "-c", args.source, "-o", out]))
        if len(available) > 1:
            for t in available:
                builds.append(("weftcc", t, [args.weftcc, f"--offload-arch={t}", "-O2", "-c", args.source, "-o", out]))
    if not builds:
        print("nothing to measure")
        shutil.rmtree(tmp, ignore_errors=True)
        return 77

    times = {i: [] for i in range(len(builds))}
    for _ in range(args.runs):
        for i, (_, _, cmd) in enumerate(builds):  # interleaved: every build sees the same load
            seconds, proc = timed(cmd)
            if proc.returncode != 0:
                print(f"{builds[i][0]} {builds[i][1]} failed during the runs: {first_error(proc.stdout)}")
                return 1
            times[i].append(seconds)
    shutil.rmtree(tmp, ignore_errors=True)

    base = statistics.median(times[0]) if hipcc_cmd else None
    print()
    print(f"| compiler | targets | median s | min s | max s | vs hipcc gfx90a |")
    print(f"|---|---|---|---|---|---|")
    for i, (name, tgts, _) in enumerate(builds):
        med = statistics.median(times[i])
        ratio = f"{med / base:.2f}x" if base else "n/a"
        print(f"| {name} | {tgts} | {med:.2f} | {min(times[i]):.2f} | {max(times[i]):.2f} | {ratio} |")
    if base and available:
        ratio = statistics.median(times[1]) / base
        verdict = "meets" if ratio <= 2.0 else "misses"
        print(f"\nweftcc for {','.join(available)} / hipcc for gfx90a = {ratio:.2f}x ({verdict} the <= 2x target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
