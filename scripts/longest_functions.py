#!/usr/bin/env python3
"""Lists the longest function bodies in engine/, ui/ and app/ (lines from signature to closing
brace), leaving out tables: registration functions of the registries and name switches.

Usage: scripts/longest_functions.py [N]   (default 10)
A brace-matching heuristic, not a parser: it is for the architecture review, not for CI.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOT_FUNCTION = re.compile(r"\b(namespace|class|struct|enum|union|if|for|while|switch|catch|do|else)\b")
TABLE = re.compile(r"^(register\w*|add\w*Builtins|\w*Name|\w*Kind\(\)|builtin\w*Table|make\w*Table)$")


# One pass, so a "//" inside a string is not taken for a comment.
TOKEN = re.compile(r'R"\((.*?)\)"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])+\'|//[^\n]*|/\*.*?\*/',
                   re.S)


def strip(code):
    def blank(m):
        text = m.group(0)
        keep = "\n" * text.count("\n")
        return keep if text.startswith("/") else '""' + keep
    return TOKEN.sub(blank, code)


def functions(path):
    code = strip(open(path, encoding="utf-8").read())
    out, stack, start = [], [], 0
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            head = code[start:i]
            sig = " ".join(head.split())
            is_fn = (")" in sig and not NOT_FUNCTION.search(sig.split("(")[0]) and
                     not sig.rstrip().endswith(("=", ",", "return")) and "=" not in sig.split("(")[0]
                     and not any(s[2] for s in stack))
            name = ""
            if is_fn:
                m = re.search(r"([~\w:]+)\s*\([^()]*(\([^()]*\)[^()]*)*\)[^()]*$", sig)
                name = m.group(1) if m else sig[:40]
            stack.append((line - head.count("\n") + (1 if head.startswith("\n") else 0), name, is_fn))
            start = i + 1
        elif c == "}":
            if stack:
                first, name, is_fn = stack.pop()
                if is_fn:
                    out.append((line - first + 1, name, first))
            start = i + 1
        elif c == ";":
            start = i + 1
    return out


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    found = []
    for top in ("engine", "ui", "app"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".cpp"):
                    p = os.path.join(dirpath, f)
                    for length, name, first in functions(p):
                        if not TABLE.match(name.split("::")[-1]):
                            found.append((length, name, os.path.relpath(p, ROOT), first))
    found.sort(reverse=True)
    for length, name, path, first in found[:n]:
        print(f"{length:5}  {name}  {path}:{first}")


if __name__ == "__main__":
    main()
