# SPDX-License-Identifier: MIT
"""The targets weftcc builds when no --offload-arch is given: the CPU agent plus the
GPUs of this machine, or the list in WEFTCC_OFFLOAD_ARCH (docs/settings.md)."""
from __future__ import annotations

import glob
import os
import shutil
import subprocess

ENV_OVERRIDE = "WEFTCC_OFFLOAD_ARCH"


def nvidia_targets() -> list:
    """sm_XY of every NVIDIA GPU nvidia-smi reports (none without nvidia-smi)."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return []
    try:
        out = subprocess.run([smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    found = []
    for line in out.splitlines():
        major, _, minor = line.strip().partition(".")
        if major.isdigit() and minor.isdigit():
            found.append(f"sm_{major}{minor}")
    return found


def amd_targets(root: str = "/sys/class/kfd/kfd/topology/nodes") -> list:
    """gfxNNN of every AMD GPU node in the KFD topology (gfx_target_version MMmmss:
    major, minor, stepping; the stepping is written in hex, so 90010 is gfx90a)."""
    found = []
    for props in sorted(glob.glob(os.path.join(root, "*", "properties"))):
        try:
            with open(props, encoding="ascii", errors="replace") as f:
                fields = dict(line.split(None, 1) for line in f if len(line.split()) == 2)
            version = int(fields.get("gfx_target_version", "0"))
        except (OSError, ValueError):
            continue
        if version == 0:  # a CPU node
            continue
        major, minor, stepping = version // 10000, version // 100 % 100, version % 100
        found.append(f"gfx{major}{minor}{stepping:x}")
    return found


def default_targets(environ=os.environ) -> tuple:
    """(targets, where they came from) for a compile without --offload-arch."""
    override = environ.get("WEFTCC_OFFLOAD_ARCH", "").strip()
    if override:
        return [t.strip() for t in override.replace(";", ",").split(",") if t.strip()], ENV_OVERRIDE
    return machine_targets(), "this machine's agents"


def machine_targets() -> list:
    """x86_64 (the CPU agent) and this machine's GPUs (--offload-arch=native)."""
    targets = ["x86_64"]
    for t in nvidia_targets() + amd_targets():
        if t not in targets:
            targets.append(t)
    return targets
