#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Documentation that must follow the code:
#  - docs/settings.md has a row for every environment variable weft and hip-smi read
#    (the names passed to the settings reader in lib/common/env.cpp and every getenv
#    in src/, lib/ and drivers/, and every os.environ.get/getenv in tools/weftcc/);
#  - the README's dependency table lists exactly the packages tools/setup.sh installs.
#   check_docs.py SOURCE_ROOT
import os
import re
import sys

root = sys.argv[1]
failures = []


def read(rel):
    with open(os.path.join(root, rel), encoding='utf-8') as f:
        return f.read()


read_names = set()
for top in ('src', 'lib', 'drivers'):
    for folder, _, files in os.walk(os.path.join(root, top)):
        for name in files:
            if not name.endswith(('.cpp', '.hpp', '.h', '.c')):
                continue
            with open(os.path.join(folder, name), encoding='utf-8', errors='replace') as f:
                text = f.read()
            read_names |= set(re.findall(r'getenv\("([A-Z0-9_]+)"\)', text))
            if name == 'env.cpp':
                read_names |= set(re.findall(r'r\.(?:text|integer)\("([A-Z0-9_]+)"', text))
# weftcc (a build-time tool, Python): every variable its modules read.
for folder, _, files in os.walk(os.path.join(root, 'tools', 'weftcc')):
    for name in files:
        if name.endswith('.py') or name == 'weftcc':
            with open(os.path.join(folder, name), encoding='utf-8', errors='replace') as f:
                text = f.read()
            read_names |= set(re.findall(r'(?:environ\.get|getenv)\(\s*"([A-Z0-9_]+)"', text))
            read_names |= set(re.findall(r'environ\[\s*"([A-Z0-9_]+)"\s*\]', text))
settings = read('docs/settings.md')
documented = set(re.findall(r'^\| `([A-Z0-9_]+)` \|', settings, re.M))
for name in sorted(read_names - documented):
    failures.append(f'docs/settings.md has no row for {name}, which the code reads')
if len(read_names) < 10:
    failures.append(f'found only {sorted(read_names)}: the scan of the sources is broken')

setup = read('tools/setup.sh')
m = re.search(r'PACKAGES=\((.*?)\)', setup, re.S)
installed = set(m.group(1).split()) if m else set()
readme = read('README.md')
section = readme[readme.index('## Dependencies'):]
section = section[:section.index('\n## ', 1)]
listed = set()
for row in re.findall(r'^\| ([^|]+) \|', section, re.M):
    if row.strip() in ('package', '---'):
        continue
    for item in re.sub(r'\([^)]*\)', '', row).split(','):
        listed.add(item.strip())
for p in sorted(installed - listed):
    failures.append(f'tools/setup.sh installs {p}; the README dependency table does not list it')
for p in sorted(listed - installed):
    failures.append(f'the README dependency table lists {p}; tools/setup.sh does not install it')
if not installed:
    failures.append('no PACKAGES list found in tools/setup.sh')

for f in failures:
    print('FAIL:', f)
print(f'{len(read_names)} settings, {len(installed)} packages checked; {len(failures)} failure(s)')
sys.exit(1 if failures else 0)
