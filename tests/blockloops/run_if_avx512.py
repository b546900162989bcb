#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs a test binary built for x86-64-v4 (AVX-512) where the CPU has avx512f, else skips
# (Meson's exit code 77): blockloops_pass_O2_v4, the rewritten kernels with 512-bit vectors.
import os
import sys

flags = set()
try:
    with open('/proc/cpuinfo') as f:
        for line in f:
            if line.startswith('flags'):
                flags.update(line.split(':', 1)[1].split())
except OSError:
    pass
if 'avx512f' not in flags or 'avx512bw' not in flags or 'avx512vl' not in flags:
    print('SKIPPED: this CPU has no AVX-512 (avx512f/bw/vl) for the x86-64-v4 build')
    sys.exit(77)
os.execv(sys.argv[1], sys.argv[1:])
