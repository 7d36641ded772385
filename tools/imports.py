#!/usr/bin/env python3
"""The import graph of src/ (crate::, super:: and child-module paths, comments and unit tests left out) and its circles: python3 tools/imports.py [src] [-v]."""
import os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else 'src'
mods = {}
for d, _, fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'):
            p = os.path.join(d, f)
            rel = os.path.relpath(p, root)[:-3].split(os.sep)
            if rel[-1] == 'mod': rel = rel[:-1]
            if rel in (['lib'], ['main']): continue
            mods['::'.join(rel)] = p
def resolve(path):
    parts = path.split('::')
    for i in range(len(parts), 0, -1):
        m = '::'.join(parts[:i])
        if m in mods: return m
    return None
graph = {m: set() for m in mods}
for m, p in mods.items():
    src = open(p).read()
    src = re.sub(r'#\[cfg\(test\)\]\s*mod tests\s*\{.*', '', src, flags=re.S)
    src = re.sub(r'//[^\n]*', '', src)
    src = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', src)
    # expand use groups crudely: crate::a::{b, c::d}
    for mt in re.finditer(r'\b(crate|super)((?:::\w+)+)(?:::\{([^;]*?)\})?', src):
        base = mt.group(1); rest = mt.group(2)[2:]
        if base == 'super':
            parent = m.split('::')[:-1] if not p.endswith('mod.rs') else m.split('::')[:-1]
            full = '::'.join(parent + [rest]) if parent else rest
        else:
            full = rest
        targets = [full]
        if mt.group(3):
            for item in re.split(r',', mt.group(3)):
                item = item.strip().split(' as ')[0].strip('{} ')
                if item and item != 'self': targets.append(full + '::' + item.split('::{')[0])
        for t in targets:
            pass
        for t in targets:
            r = resolve(t)
            if r and r != m: graph[m].add(r)
# relative paths to child modules (chess::pgn::X written inside family)
for m, p in mods.items():
    src = open(p).read()
    src = re.sub(r'#\[cfg\(test\)\]\s*mod tests\s*\{.*', '', src, flags=re.S)
    src = re.sub(r'//[^\n]*', '', src)
    src = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', src)
    prefix = m + '::' if m else ''
    src = re.sub(r'(?m)^\s*(pub(\([^)]*\))? )?mod \w+;', '', src)
    children = {k[len(prefix):].split('::')[0] for k in mods if k.startswith(prefix) and k != m}
    for c in children:
        for mt in re.finditer(r'(?<![:\w])%s\b((?:::\w+)*)' % re.escape(c), src):
            r = resolve(prefix + c + mt.group(1))
            if r and r != m: graph[m].add(r)
# Tarjan
idx = {}; low = {}; st = []; on = set(); sccs = []; c = [0]
sys.setrecursionlimit(10000)
def sc(v):
    idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in graph[v]:
        if w not in idx: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        sccs.append(comp)
for v in graph:
    if v not in idx: sc(v)
big = [s for s in sccs if len(s) > 1]
print(f"{len(mods)} modules, {len(big)} circles")
for s in sorted(big, key=len, reverse=True):
    print(len(s), sorted(s))
if '-v' in sys.argv:
    for m in sorted(graph): print(m, '->', sorted(graph[m]))
