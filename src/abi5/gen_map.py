#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Version script for libamdhip64.so.5 (docs/abi5.md).

Usage: gen_map.py EXPORTS_TXT OUTPUT SYMBOL...

Defines every version node of exports.txt, in its order and with its parents, so
the dynamic linker finds each node a 5.x program requires from libamdhip64.so.5;
only the listed symbols are global, each in the node exports.txt gives it (an
unknown symbol is an error). Nodes without a symbol are empty (weak definitions).
"""
import sys


def main(argv):
    exports, output, symbols = argv[1], argv[2], argv[3:]
    nodes, node_of = [], {}
    for line in open(exports):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        if line.startswith('%node '):
            nodes.append(line.split()[1])
            continue
        fields = line.split()
        node_of[fields[0]] = fields[1]
    missing = [s for s in symbols if s not in node_of]
    if missing:
        sys.exit('gen_map.py: not in exports.txt: ' + ' '.join(missing))
    with open(output, 'w') as out:
        for i, node in enumerate(nodes):
            names = sorted(s for s in symbols if node_of[s] == node)
            body = ''.join(f' {s};' for s in names)
            out.write(f'{node} {{')
            if names:
                out.write(f' global:{body}')
            if i == 0:
                out.write(' local: *;')
            out.write(' }' + (f' {nodes[i - 1]};\n' if i else ';\n'))


if __name__ == '__main__':
    main(sys.argv)
