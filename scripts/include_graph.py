#!/usr/bin/env python3
"""Prints the folder include graph of engine/ and ui/ (and app/), and fails on a cycle.

A folder is engine/<x> or ui/<x>; an edge A -> B means some file in A includes a header in B.
Usage: scripts/include_graph.py [--dot]   (exit status 1 when the graph has a cycle)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = re.compile(r'^\s*#\s*include\s+"((?:engine|ui|app)/[^"]+)"', re.M)


def folder(path):
    parts = path.split("/")
    return parts[0] if parts[0] == "app" or len(parts) < 3 else "/".join(parts[:2])


def edges():
    out = {}
    for top in ("engine", "ui", "app"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if not f.endswith((".h", ".cpp")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), ROOT)
                src = folder(rel)
                with open(os.path.join(ROOT, rel), encoding="utf-8") as fh:
                    for inc in INCLUDE.findall(fh.read()):
                        dst = folder(inc)
                        if dst != src:
                            out.setdefault(src, {}).setdefault(dst, set()).add(rel)
    return out


def find_cycle(graph):
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, {})):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def layers(graph):
    """Folders ordered bottom-up: each depends only on folders listed before it."""
    nodes = set(graph) | {m for d in graph.values() for m in d}
    order, done = [], set()
    while len(done) < len(nodes):
        ready = sorted(n for n in nodes - done if set(graph.get(n, {})) <= done)
        if not ready:
            break
        order.append(ready)
        done |= set(ready)
    return order


def main():
    graph = edges()
    if "--dot" in sys.argv:
        print("digraph includes {")
        for a in sorted(graph):
            for b in sorted(graph[a]):
                print(f'  "{a}" -> "{b}";')
        print("}")
    else:
        for a in sorted(graph):
            print(f"{a:16} -> " + ", ".join(sorted(graph[a])))
    cycle = find_cycle(graph)
    if cycle:
        print("CYCLE: " + " -> ".join(cycle), file=sys.stderr)
        a, b = cycle[0], cycle[1]
        for f in sorted(graph[a][b]):
            print(f"  {a} -> {b} via {f}", file=sys.stderr)
        return 1
    if "--dot" not in sys.argv:
        print("layers, bottom up:")
        for i, level in enumerate(layers(graph)):
            print(f"  {i}: " + ", ".join(level))
    return 0


if __name__ == "__main__":
    sys.exit(main())
