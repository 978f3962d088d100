#!/usr/bin/env python3
"""Mean cores per thread group over the measured freshness runs of a sampler.py file.

    python3 docs/benchmarks/phase_means.py <samples> [phase prefix, default 'freshness run']

Groups: per role (svc, broker, harness), the stream threads (names starting with the application id), HTTP,
compactions, flushes, GC, JIT, Streams' producer I/O and the broker's request threads (data-plane); every other
thread under 'other'. RocksDB gauges (running compactions, memtable bytes) are averaged as they are. A group whose
threads end between two samples can read slightly negative (its ticks leave with them).
"""
import ast, collections, sys

path = sys.argv[1]
prefix = sys.argv[2] if len(sys.argv) > 2 else 'freshness run'
rows = [ast.literal_eval(l) for l in open(path) if l.startswith('{')]
rows = [r for r in rows if r['phase'].startswith(prefix)]
if not rows:
    sys.exit(f'no sample of a phase starting with {prefix!r} in {path}')
KEEP = ('http', 'compact', 'flush', 'gc', 'jit', 'kafka-producer-')
means = collections.Counter()
for r in rows:
    for key, value in r.items():
        if key in ('t', 'utc', 'phase'):
            continue
        if key.startswith(('cur_', 'estimate_', 'num_')):
            means[key] += value / len(rows)
            continue
        role, name = key.split('.', 1)
        if name.startswith('catalog-views-b'):
            group = 'stream'
        elif name.startswith('data-plane'):
            group = 'data-plane'
        elif name in KEEP:
            group = name
        else:
            group = 'other'
        means[f'{role}.{group}'] += value / 100 / len(rows)
print(f'{len(rows)} samples of phases starting with {prefix!r}')
for key in sorted(means):
    print(f'{key:34s} {means[key]:.3f}')
