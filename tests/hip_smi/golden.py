#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs hip-smi once and compares its output with a golden file.

    golden.py HIP_SMI GOLDEN [--rc N] [--json | --jsonl] -- ARGS...
    golden.py HIP_SMI --real

The comparison replaces hip-smi's version with @VERSION@ and the fixture folder
with @ROOT@, so neither a release nor a checkout path changes the goldens.
stderr, when there is any, is appended after a "--- stderr ---" line.
HIP_SMI_UPDATE_GOLDEN=1 rewrites the golden file instead of comparing.

--real runs on this machine (no fixture) and checks what must hold anywhere:
the JSON parses, a CPU agent is present, every view exits cleanly.
"""
import difflib
import json
import os
import subprocess
import sys


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    return p.returncode, p.stdout, p.stderr


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


def real(hip_smi):
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
        return real(hip_smi)
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
    rc, out, err = run([hip_smi] + args)
    failures = []
    if rc != expected_rc:
        failures.append(f"exit status {rc}, expected {expected_rc}")
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
