#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# AMD_LOG_LEVEL / AMD_LOG_MASK and setting warnings, end to end: runs log_program
# under several environments; stdout (every result code and the computed data)
# must be the same each time, and stderr must hold exactly the lines the level
# and mask select, each with the `:L:weft:cat : T us: [pid:P tid:T]` prefix.
import os
import re
import subprocess
import sys

PROGRAM = sys.argv[1]
LINE = re.compile(r'^:(\d):weft:([a-z0-9]+) *: (\d{10,}) us: \[pid:(\d+) tid:(\d+)\] (.*)$')
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def run(**env):
    base = {k: v for k, v in os.environ.items()
            if k not in ('AMD_LOG_LEVEL', 'WEFT_LOG_LEVEL', 'AMD_LOG_MASK', 'WEFT_CPU_WORKERS',
                         'WEFT_CPU_STACK_SIZE', 'HIP_LAUNCH_BLOCKING', 'AMD_SERIALIZE_KERNEL')}
    base.update(env)
    p = subprocess.run([PROGRAM], env=base, capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f'{env}: exit status {p.returncode}')
    lines = [l for l in p.stderr.splitlines() if l]
    parsed = []
    for l in lines:
        m = LINE.match(l)
        check(m is not None, f'{env}: line without the prefix: {l!r}')
        if m:
            parsed.append((int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5)),
                           m.group(6)))
    if parsed:
        check(len({p[3] for p in parsed}) == 1, f'{env}: lines from more than one pid')
    return p.stdout, parsed


def api_lines(parsed, level=3):
    return [m for (lvl, _, _, _, _, m) in parsed if lvl == level]


baseline, quiet = run()
check(quiet == [], f'no level set: expected no log lines, got {quiet[:3]}')
check('sum 1498500.0' in baseline, f'program computed the wrong sum: {baseline!r}')

# Level 1: failures only, whatever the mask.
out, parsed = run(AMD_LOG_LEVEL='1', AMD_LOG_MASK='0')
check(out == baseline, 'AMD_LOG_LEVEL=1 changed the results')
check(all(p[0] == 1 for p in parsed), 'AMD_LOG_LEVEL=1 wrote a line above level 1')
check(any('hipSetDevice(99) failed: hipErrorInvalidDevice' in p[5] for p in parsed),
      'AMD_LOG_LEVEL=1 did not log the failing hipSetDevice(99)')

# Level 3: every call, successes too, with arguments and result.
out, parsed = run(AMD_LOG_LEVEL='3')
check(out == baseline, 'AMD_LOG_LEVEL=3 changed the results')
info = api_lines(parsed)
check(all(p[0] <= 3 for p in parsed), 'AMD_LOG_LEVEL=3 wrote a debug line')
check(any(re.match(r'hipSetDevice \( \d+ \) = hipSuccess : \d+ us$', m) for m in info), 'no hipSetDevice line')
check(any(re.match(r'hipSetDevice \( 99 \) = hipErrorInvalidDevice \(101\) : \d+ us : ', m) for m in info),
      'no hipSetDevice(99) result line')
check(any(re.match(r'hipMalloc \( 0x[0-9a-f]+, 4000 \) = hipSuccess', m) for m in info), 'no hipMalloc line')
check(any(re.match(r'hipMemcpy \( 0x[0-9a-f]+, 0x[0-9a-f]+, 4000, 1 \) = hipSuccess', m) for m in info),
      'no hipMemcpy host-to-device line')
check(any(m.startswith('hipGetLastError (  ) = hipSuccess') for m in info), 'no hipGetLastError line')
check(any(m.startswith('hipDeviceGetName ( 0x') for m in info),
      'hipDeviceGetName: the output buffer must be shown as an address')
check(any(m.startswith('hipFree ( 0x10 ) = hipErrorInvalidValue') for m in info), 'no failing hipFree line')
check(len({p[4] for p in parsed}) >= 2, 'the second thread\'s call does not show its own thread id')
memset_tids = {p[4] for p in parsed if p[5].startswith('hipMemset (')}
malloc_tids = {p[4] for p in parsed if p[5].startswith('hipMalloc (')}
check(memset_tids and malloc_tids and memset_tids.isdisjoint(malloc_tids),
      'hipMemset ran on another thread but logged the same tid')
by_tid = {}
for p in parsed:
    by_tid.setdefault(p[4], []).append(p[2])
check(all(t == sorted(t) for t in by_tid.values()), 'timestamps of one thread go backwards')
check(any(p[1] == 'api' for p in parsed), 'API lines are not in the api category')

# Level 4: also a line when each call starts.
out, parsed = run(AMD_LOG_LEVEL='4')
check(out == baseline, 'AMD_LOG_LEVEL=4 changed the results')
check(any(re.match(r'hipMalloc \( 0x[0-9a-f]+, 4000 \) \.\.\.$', m) for m in api_lines(parsed, 4)),
      'AMD_LOG_LEVEL=4 has no entry line for hipMalloc')

# Level 4 with the kernel category: the queued kernel with its geometry, no copies.
out, parsed = run(AMD_LOG_LEVEL='4', AMD_LOG_MASK='0x80')
check(out == baseline, 'AMD_LOG_LEVEL=4 AMD_LOG_MASK=0x80 changed the results')
debug = api_lines(parsed, 4)
check(any(re.match(r'stream 0x[0-9a-f]+: kernel scale grid \{8,1,1\} block \{128,1,1\} dynamic shared 0 bytes', m)
          for m in debug), f'no queued-kernel line at level 4: {debug[:6]}')
check(all(p[1] in ('api', 'kern') for p in parsed if p[0] >= 3), 'mask 0x80 let other categories through')
out, parsed = run(AMD_LOG_LEVEL='4', AMD_LOG_MASK='0x100')
debug = api_lines(parsed, 4)
check(any(re.match(r'stream 0x[0-9a-f]+: copy host to device 4000 x 1 bytes', m) for m in debug),
      f'no queued-copy line at level 4: {debug[:6]}')
check(any(re.match(r'stream 0x[0-9a-f]+: fill 4000 x 1 elements of 1 bytes with 0x0', m) for m in debug),
      'no queued-fill line at level 4')

# AMD_LOG_MASK: the copy category only.
out, parsed = run(AMD_LOG_LEVEL='3', AMD_LOG_MASK='0x100')
check(out == baseline, 'AMD_LOG_MASK=0x100 changed the results')
info = api_lines(parsed)
check(any(m.startswith('hipMemcpy (') for m in info), 'AMD_LOG_MASK=0x100 hides the copies')
check(any(m.startswith('hipMemset (') for m in info), 'AMD_LOG_MASK=0x100 hides the fills')
check(not any(m.startswith(('hipMalloc', 'hipSetDevice', 'hipFree')) for m in info),
      'AMD_LOG_MASK=0x100 shows calls that are not copies')
check(any(p[0] == 1 and 'hipSetDevice(99) failed' in p[5] for p in parsed),
      'AMD_LOG_MASK hid an error line')

# The kernel category only: the launch, no copies.
out, parsed = run(AMD_LOG_LEVEL='3', AMD_LOG_MASK=str(0x80))
check(out == baseline, 'AMD_LOG_MASK=128 changed the results')
info = api_lines(parsed)
check(any('Launch' in m.split(' ')[0] or m.startswith('__hipPushCallConfiguration') for m in info),
      f'AMD_LOG_MASK=0x80 shows no launch: {info[:5]}')
check(not any(m.startswith('hipMemcpy') for m in info), 'AMD_LOG_MASK=0x80 shows copies')

# The memory category: allocations and frees.
out, parsed = run(AMD_LOG_LEVEL='3', AMD_LOG_MASK=str(0x20000))
info = api_lines(parsed)
check(any(m.startswith('hipMalloc (') for m in info) and any(m.startswith('hipFree (') for m in info),
      'AMD_LOG_MASK=0x20000 hides allocations')
check(not any(m.startswith('hipMemcpy') for m in info), 'AMD_LOG_MASK=0x20000 shows copies')

# An empty mask: no info lines at all, errors still.
out, parsed = run(AMD_LOG_LEVEL='3', AMD_LOG_MASK='0')
check(api_lines(parsed) == [], 'AMD_LOG_MASK=0 still shows info lines')
check(any(p[0] == 1 for p in parsed), 'AMD_LOG_MASK=0 hid the error lines')

# Invalid settings: one warning each (even with no level set), a documented fallback,
# and the same results.
cores = len(os.sched_getaffinity(0))
for env, expect in [
        ({'WEFT_CPU_WORKERS': 'abc'}, 'WEFT_CPU_WORKERS=abc is not an integer; using one worker per usable core'),
        ({'WEFT_CPU_WORKERS': '0'}, 'WEFT_CPU_WORKERS=0 is outside 1..4096'),
        ({'WEFT_CPU_WORKERS': str(cores + 62)},
         f'WEFT_CPU_WORKERS={cores + 62} exceeds the {cores} usable cores; using {cores}'),
        ({'WEFT_CPU_STACK_SIZE': '100'}, 'WEFT_CPU_STACK_SIZE=100 is outside 16384..1073741824 bytes; using 262144'),
        ({'AMD_LOG_LEVEL': 'loud'}, 'AMD_LOG_LEVEL=loud is not an integer; using 0 (off)'),
        ({'AMD_LOG_LEVEL': '2', 'AMD_LOG_MASK': 'all'}, 'AMD_LOG_MASK=all is not an integer'),
        ({'AMD_SERIALIZE_KERNEL': '9'}, 'AMD_SERIALIZE_KERNEL=9 is outside 0..3'),
        ({'HIP_LAUNCH_BLOCKING': 'yes'}, 'HIP_LAUNCH_BLOCKING=yes is not an integer')]:
    out, parsed = run(**env)
    check(out == baseline, f'{env} changed the results')
    warnings = [p for p in parsed if p[0] == 2]
    check(len(warnings) == 1 and expect in warnings[0][5], f'{env}: expected one warning "{expect}", got {parsed}')
# Level 0 chosen explicitly: silent.
out, parsed = run(AMD_LOG_LEVEL='0', WEFT_CPU_WORKERS='abc')
check(parsed == [], 'AMD_LOG_LEVEL=0 did not silence the settings warning')

for f in failures:
    print('FAIL:', f)
print(f'{len(failures)} failure(s)')
sys.exit(1 if failures else 0)
