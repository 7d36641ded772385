#!/usr/bin/env python3
"""Writes the PGN cases of python-chess's test.py as files, one per case.

Usage: conformance/python_chess_cases.py TEST_PY OUT_DIR

TEST_PY is python-chess's `test.py` (fetch niklasf/python-chess); every
`io.StringIO(...)` whose argument is a string literal, or `textwrap.dedent`
of one, inside a test class that reads PGN, is written to
OUT_DIR/<Class>.<test>.<n>.pgn, for conformance/pgn.py to read.
Nothing is kept in the repo but this script.
"""

import ast
import os
import sys
import textwrap


def literal(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "dedent" and node.args):
        inner = literal(node.args[0])
        return None if inner is None else textwrap.dedent(inner)
    return None


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, out = sys.argv[1], sys.argv[2]
    tree = ast.parse(open(src, encoding="utf-8").read())
    os.makedirs(out, exist_ok=True)
    written = 0
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or "Pgn" not in cls.name:
            continue
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            n = 0
            for node in ast.walk(fn):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "StringIO" and node.args):
                    text = literal(node.args[0])
                    if text is None or not text.strip():
                        continue
                    n += 1
                    path = os.path.join(out, f"{cls.name}.{fn.name}.{n}.pgn")
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(text)
                    written += 1
    print(f"{written} cases written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
