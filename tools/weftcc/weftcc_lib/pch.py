# SPDX-License-Identifier: MIT
"""The host pass's precompiled header: what happens when clang rejects it.

The host pass (driver.HostPass) reads the prelude and the source's first header from a
PCH that driver.prelude_pch finds or builds with cpu_pch.Pch (the same cache folder,
key, manifest of every file read, lock and C++20 flags as the x86_64 step's, files
named prelude-*): parsing them is most of a host pass (about 1.2 of 1.3 CPU seconds for
bench/weftcc/kernels.hip, ~2 of ~3 for a conformance test). When the pass fails with the
PCH, it reruns with the prelude as text, and these functions drop the PCH: a stale one
is built again next time, one that failed where the text compiled is marked unusable.
WEFTCC_PCH=0: no PCH.
"""
from __future__ import annotations

import pathlib


def discard(path: pathlib.Path, unusable: bool) -> None:
    """Drops a PCH: a stale one is rebuilt by the next run; an `unusable` one (it failed
    where the text prelude compiled) gets a marker so that later runs with the same
    command line do without."""
    try:
        if unusable:
            path.with_suffix(".unusable").touch()
        path.unlink()
    except OSError:
        pass


def is_stale_pch_error(output: str) -> bool:
    return "precompiled header" in output or "PCH file" in output
