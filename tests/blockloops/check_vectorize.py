#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# blockloops_vectorize: compiles vectorize.cpp to LLVM IR with clang++-15 and the
# block_loops plugin (for x86-64-v3, whatever the host: nothing runs) and checks
#  - "expect-parallel: KERNEL N": the pass's remark says N of the kernel's loops
#    over threads are marked parallel;
#  - "expect-vectorized: KERNEL": the kernel's code has vector float arithmetic and
#    none of the loop vectorizer's run-time alias checks (LLVM 15 names them
#    bound0/bound1/found.conflict for ranges and diff.check for distances; names are
#    kept by -fno-discard-value-names);
#  - "expect-exchanges: KERNEL N": the remark says N of the kernel's warp shuffles are
#    exchanged inside the region after them (not by a pass over the block between two
#    regions, block_runtime's __weft_bl_prepare, the slow path);
#  - "expect-shifted: KERNEL N": N of those read their source as the lane plus block-uniform
#    shifts (contiguous loads and selects), not a gather;
#  - "expect-kept: KERNEL N": the remark says N values are kept per thread across sync points;
#  - "expect-bounded: KERNEL N": N of its regions stop their x loops at a uniform bound
#    (threads past an `if (threadIdx.x < s)` that do nothing else);
#  - "expect-unrolled: KERNEL N": N of its loops around warp shuffles were unrolled before
#    the kernel was cut at its sync points (small constant trip counts);
#  - "expect-lanes: KERNEL N": N of its exchange regions run only the lanes whose results a
#    later region reads (a warp reduction's rounds before an `if (lane == 0)` store).
# Arguments after the source go to clang++: with -DBL_RANGES the kernels are asked for in
# the range form (markers.h), and every kernel's remark must say it runs ranges of blocks.
import re
import subprocess
import sys

clang, plugin, source = sys.argv[1:4]
extra = sys.argv[4:]
cmd = [clang, '-std=c++17', '-O2', '-march=x86-64-v3', '-S', '-emit-llvm',
       '-fno-discard-value-names', '-o', '-', '-fpass-plugin=' + plugin,
       '-Rpass=weft-block-loops'] + extra + [source]
run = subprocess.run(cmd, capture_output=True, text=True)
if run.returncode != 0:
    print(run.stderr)
    sys.exit('FAIL: clang++ failed: ' + ' '.join(cmd))

# The pass's remark per kernel: each count it reports, by the words after the number.
parallel = {}
exchanges = {}
shifted = {}
kept = {}
bounded = {}
unrolled = {}
lanes = {}
remark_counts = [(parallel, r'(\d+) parallel thread loops'),
                 (exchanges, r'(\d+) in-region warp exchanges'),
                 (shifted, r'\((\d+) by lane shifts\)'),
                 (kept, r'(\d+) values kept per thread'),
                 (bounded, r'(\d+) regions bounded by threadIdx.x guards'),
                 (unrolled, r'(\d+) loops around warp shuffles unrolled'),
                 (lanes, r'(\d+) exchange regions bounded to the lanes read later')]
for line in run.stderr.splitlines():
    for counts, words in remark_counts:
        m = re.search(r'remark: kernel (\S+) runs whole blocks: .* ' + words, line)
        if m:
            counts[m.group(1)] = int(m.group(2))
form = 'ranges of blocks' if '-DBL_RANGES' in extra else 'one block per call'
forms = {}
for line in run.stderr.splitlines():
    m = re.search(r'remark: kernel (\S+) runs whole blocks: .*, (ranges of blocks|one block per call)',
                  line)
    if m:
        forms[m.group(1)] = m.group(2)
bodies = {}
for m in re.finditer(r'^define [^@]*@(\S+)\(.*?^}$', run.stdout, re.M | re.S):
    bodies[m.group(1)] = m.group(0)


def mangled(name, names):
    return [n for n in names if re.search(r'\d' + name + r'E', n)]


failures = []
checks = 0
with open(source) as f:
    text = f.read()
for name, want in re.findall(r'expect-parallel: ([a-z_]+) (\d+)', text):
    checks += 1
    got = mangled(name, parallel)
    if len(got) != 1:
        failures.append(f'kernel {name}: no whole-block remark (remarks: {parallel})')
    elif parallel[got[0]] != int(want):
        failures.append(f'kernel {name}: {parallel[got[0]]} parallel thread loops, expected {want}')
for name, want in re.findall(r'expect-exchanges: ([a-z_]+) (\d+)', text):
    checks += 1
    got = mangled(name, exchanges)
    if len(got) != 1:
        failures.append(f'kernel {name}: no whole-block remark (remarks: {exchanges})')
    elif exchanges[got[0]] != int(want):
        failures.append(f'kernel {name}: {exchanges[got[0]]} in-region warp exchanges, expected {want}')
for what, counts in (('shifted', shifted), ('kept', kept), ('bounded', bounded),
                     ('unrolled', unrolled), ('lanes', lanes)):
    for name, want in re.findall(r'expect-' + what + r': ([a-z_]+) (\d+)', text):
        checks += 1
        got = mangled(name, counts)
        if len(got) != 1:
            failures.append(f'kernel {name}: no whole-block remark (remarks: {counts})')
        elif counts[got[0]] != int(want):
            failures.append(f'kernel {name}: {counts[got[0]]} {what}, expected {want}')
for name in re.findall(r'expect-vectorized: ([a-z_]+)', text):
    checks += 1
    got = mangled(name, bodies)
    if len(got) != 1:
        failures.append(f'kernel {name}: not found in the IR')
        continue
    body = bodies[got[0]]
    if not re.search(r'= f(add|mul) (fast )?<\d+ x float>', body):
        failures.append(f'kernel {name}: no vector float arithmetic')
    checks_seen = sorted(set(re.findall(r'%(found\.conflict|diff\.check|bound0)\w*', body)))
    if checks_seen:
        failures.append(f'kernel {name}: run-time alias checks in the vector loops: {checks_seen}')
if not forms:
    failures.append('no whole-block remarks')
for name, got_form in sorted(forms.items()):
    checks += 1
    if got_form != form:
        failures.append(f'kernel {name}: runs {got_form}, expected {form}')
if checks == 0:
    failures.append('no expectations found in ' + source)
for f in failures:
    print('FAIL:', f)
if failures:
    sys.exit(1)
print(f'{checks} expectations met')
