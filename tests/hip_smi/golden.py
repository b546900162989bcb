#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs hip-smi once and compares its output with a golden file.

    golden.py HIP_SMI GOLDEN [--rc N] [--json | --jsonl] -- ARGS...
    golden.py HIP_SMI --real [WEFT_PROGRAM]

The comparison replaces hip-smi's version with @VERSION@ and the fixture folder
with @ROOT@, so neither a release nor a checkout path changes the goldens.
stderr, when there is any, is appended after a "--- stderr ---" line.
HIP_SMI_UPDATE_GOLDEN=1 rewrites the golden file instead of comparing.

--real runs on this machine (no fixture) and checks what must hold anywhere:
the JSON parses, a CPU agent is present, every view exits cleanly, topo's NUMA
memory matches /sys/devices/system/node/nodeN/meminfo, and (with WEFT_PROGRAM, a
weft program that waits for its stdin to close) a running weft process is listed
under the CPU agent and is gone once it exits.
"""
import difflib
import json
import os
import subprocess
import sys


def run(cmd, env=None, raw=None):
    """stdout and stderr as text; bytes that are not UTF-8 (a table may print a
    firmware string as it is) show as \\xNN. `raw`, a list, receives stdout's bytes."""
    p = subprocess.run(cmd, capture_output=True, env=env, timeout=60)
    if raw is not None:
        raw.append(p.stdout)
    return (p.returncode, p.stdout.decode("utf-8", "backslashreplace"),
            p.stderr.decode("utf-8", "backslashreplace"))


def version(hip_smi):
    _, out, _ = run([hip_smi, "--version"])
    return out.split()[1]


def normalise(text, ver, root):
    text = text.replace(f"hip-smi {ver}", "hip-smi @VERSION@")
    text = text.replace(f'"hip_smi_version": "{ver}"', '"hip_smi_version": "@VERSION@"')
    text = text.replace(f'"hip_smi_version":"{ver}"', '"hip_smi_version":"@VERSION@"')
    if root:
        text = text.replace(root, "@ROOT@")
    return text


def node_meminfo(node):
    values = {}
    with open(f"/sys/devices/system/node/node{node}/meminfo") as f:
        for row in f:
            key, _, value = row.partition(":")
            parts = value.split()
            if parts:
                values[key.split()[-1]] = int(parts[0]) * (1024 if parts[1:] == ["kB"] else 1)
    return values


def check_numa(hip_smi):
    if not os.path.isdir("/sys/devices/system/node/node0"):
        print("no /sys/devices/system/node here: NUMA check skipped")
        return 0
    rc, out, err = run([hip_smi, "topo", "--json"])
    doc = json.loads(out)
    for n in doc["numa_nodes"]:
        info = node_meminfo(n["node"])
        if n["memory_total_bytes"] != info["MemTotal"]:
            print(f"node {n['node']}: topo says {n['memory_total_bytes']} bytes, meminfo MemTotal {info['MemTotal']}")
            return 1
        # MemFree moves between the two reads; a unit mix-up would be off by far more.
        if abs(n["memory_free_bytes"] - info["MemFree"]) > max(info["MemTotal"] // 20, 256 << 20):
            print(f"node {n['node']}: topo free {n['memory_free_bytes']}, meminfo MemFree {info['MemFree']}")
            return 1
    print(f"NUMA memory matches meminfo for {len(doc['numa_nodes'])} node(s)")
    return 0


def check_weft_process(hip_smi, program):
    proc = subprocess.Popen([program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        if proc.stdout.readline().strip() != "ready":
            print("the weft program did not start")
            return 1
        rc, out, err = run([hip_smi, "--json"])
        doc = json.loads(out)
        cpu = next(a["index"] for a in doc["agents"] if a["kind"] == "cpu")
        mine = [p for p in doc["processes"] if p["pid"] == proc.pid]
        if len(mine) != 1 or mine[0]["agent"] != cpu or not mine[0]["memory_used_bytes"]:
            print(f"pid {proc.pid} is not listed once under the CPU agent {cpu}: {doc['processes']}")
            return 1
        print(f"weft process {proc.pid} listed: {mine[0]}")
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    rc, out, err = run([hip_smi, "--json"])
    if any(p["pid"] == proc.pid for p in json.loads(out)["processes"]):
        print(f"pid {proc.pid} is still listed after it exited")
        return 1
    return 0


def real(hip_smi, program=None):
    if check_numa(hip_smi) != 0:
        return 1
    if program and check_weft_process(hip_smi, program) != 0:
        return 1
    rc, out, err = run([hip_smi, "--json"])
    if rc != 0:
        print(f"hip-smi --json exited {rc}: {err}")
        return 1
    doc = json.loads(out)
    kinds = [a["kind"] for a in doc["agents"]]
    print(f"agents on this machine: {kinds}")
    if doc["schema_version"] != 1 or "cpu" not in kinds:
        print("expected schema 1 and a CPU agent")
        return 1
    cpu = doc["agents"][kinds.index("cpu")]
    for key in ("memory_total_bytes", "memory_used_bytes", "busy_percent", "compute_units"):
        if cpu[key] is None:
            print(f"CPU agent lacks {key}")
            return 1
    # python3 -m json.tool, as a user would check it.
    p = subprocess.run([sys.executable, "-m", "json.tool"], input=out, capture_output=True, text=True)
    if p.returncode != 0:
        print("json.tool rejected the output:", p.stderr)
        return 1
    for args, ok in (([], {0}), (["topo"], {0}), (["topo", "--json"], {0}), (["--csv"], {0}),
                     (["doctor"], {0, 1}), (["doctor", "--json"], {0, 1}), (["--json", "-l", "0.05", "-n", "2"], {0})):
        rc, out, err = run([hip_smi] + args)
        if rc not in ok:
            print(f"hip-smi {' '.join(args)} exited {rc}: {err}")
            return 1
        if "--json" in args:
            for line in (out.splitlines() if "-l" in args else [out]):
                json.loads(line)
        print(f"--- hip-smi {' '.join(args)} ---\n{out}")
    return 0


def main(argv):
    hip_smi = argv[1]
    if argv[2] == "--real":
        return real(hip_smi, argv[3] if len(argv) > 3 else None)
    golden = argv[2]
    rest = argv[3:]
    expected_rc, mode = 0, None
    while rest and rest[0] != "--":
        opt = rest.pop(0)
        if opt == "--rc":
            expected_rc = int(rest.pop(0))
        elif opt in ("--json", "--jsonl"):
            mode = opt
    args = rest[1:]
    root = args[args.index("--root") + 1] if "--root" in args else ""
    raw = []
    rc, out, err = run([hip_smi] + args, raw=raw)
    failures = []
    if rc != expected_rc:
        failures.append(f"exit status {rc}, expected {expected_rc}")
    if mode:
        # JSON must be UTF-8 (RFC 8259 section 8.1), whatever bytes sysfs held.
        try:
            raw[0].decode("utf-8", "strict")
        except UnicodeDecodeError as e:
            failures.append(f"JSON output is not UTF-8: {e}")
    try:
        if mode == "--json":
            json.loads(out)
        elif mode == "--jsonl":
            lines = out.splitlines()
            if not lines:
                failures.append("no JSON lines")
            for line in lines:
                json.loads(line)
    except json.JSONDecodeError as e:
        failures.append(f"invalid JSON: {e}")
    text = normalise(out + (f"--- stderr ---\n{err}" if err else ""), version(hip_smi), root)
    if os.environ.get("HIP_SMI_UPDATE_GOLDEN") == "1":
        os.makedirs(os.path.dirname(golden), exist_ok=True)
        with open(golden, "w") as f:
            f.write(text)
        print(f"updated {golden}")
    else:
        try:
            with open(golden) as f:
                want = f.read()
        except FileNotFoundError:
            want = ""
            failures.append(f"{golden} is missing (HIP_SMI_UPDATE_GOLDEN=1 writes it)")
        if text != want:
            failures.append("output differs from " + golden + ":\n" + "".join(
                difflib.unified_diff(want.splitlines(True), text.splitlines(True), "golden", "hip-smi")))
    print("hip-smi " + " ".join(args))
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
