#!/usr/bin/env python3
"""Samples a bench run once a second, beside it: per-role (service, broker, harness) CPU ticks by thread group from
/proc, RocksDB's running compactions and memtable sizes from the service's /metrics, and the bench's phase from its log.
Each sample has its wall-clock second ('utc'), the clock of the bench's "slowest ... probes" lines.

    python3 docs/benchmarks/sampler.py <bench log> <out> [--names]

--names: a thread outside the known groups is counted under its own name (digits as #) instead of 'other'
(the rebuild runs of 2026-12-03 were sampled so; the freshness runs without it).
"""
import os, re, sys, time, urllib.request, collections
log, out = sys.argv[1], open(sys.argv[2], 'w')
NAMES = '--names' in sys.argv[3:]
def pids():
    r = {}
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try: cmd = open(f'/proc/{p}/cmdline','rb').read().replace(b'\0',b' ').decode()
        except: continue
        if 'java' not in cmd: continue
        if 'CatalogViewsCli serve' in cmd: r[p]='svc'
        elif 'broker' in cmd.lower() and 'catalog-views-bench.jar' in cmd and '-jar' not in cmd: r[p]='broker'
        elif '-jar' in cmd and 'catalog-views-bench.jar' in cmd: r[p]='harness'
    return r
def group(name):
    for pre,g in (('StreamThre','stream'),('http','http'),('rocksdb:low','compact'),('rocksdb:high','flush'),('G1','gc'),('GC','gc'),('C2','jit'),('C1','jit')):
        if pre in name: return g
    if 'StateUpdat' in name: return 'stream'
    return re.sub(r'[0-9]+','#',name) if NAMES else 'other'
def threads(p):
    c = collections.Counter()
    try:
        for t in os.listdir(f'/proc/{p}/task'):
            try: s = open(f'/proc/{p}/task/{t}/stat').read()
            except: continue
            name = s[s.index('(')+1:s.rindex(')')]; f = s[s.rindex(')')+2:].split()
            c[group(name)] += int(f[11]) + int(f[12])
    except FileNotFoundError: pass
    return c
def port():
    try:
        m = re.search(r'on port (\d+)', open(log).read()); return m.group(1) if m else None
    except: return None
WANT = ('num_running_compactions','estimate_pending_compaction_bytes','num_running_flushes','num_immutable_mem_table','cur_size_all_mem_tables')
PHASES = ('freshness run', 'warming', 'computing', 'publishing', 'product view', 'restore')
last = {}
t0 = time.time()
while True:
    try:
        try: txt = open(log).read()
        except: txt = ''
        ph = [l for l in txt.splitlines() if l.startswith('[bench]') and any(w in l for w in PHASES)]
        now = time.time()
        row = {'t': round(now-t0,1), 'utc': time.strftime('%H:%M:%S', time.gmtime(now)), 'phase': ph[-1][8:40] if ph else ''}
        roles = pids()
        for p, role in roles.items():
            for g, v in threads(p).items():
                k = (p, g); row[f'{role}.{g}'] = row.get(f'{role}.{g}',0) + v - last.get(k, v); last[k] = v
        pt = port(); ms = collections.Counter()
        if pt and 'svc' in roles.values():
            try:
                for l in urllib.request.urlopen(f'http://localhost:{pt}/metrics', timeout=2).read().decode().splitlines():
                    if l.startswith('kafka_stream_state_'):
                        n = l.split('{')[0][len('kafka_stream_state_'):]
                        if n in WANT:
                            try: ms[n] += float(l.rsplit(' ',1)[1])
                            except: pass
            except Exception: pass
        row.update({k: int(v) for k, v in ms.items()})
        out.write(repr(row)+'\n'); out.flush()
        if '[bench] results:' in txt: break
    except Exception as e:
        out.write(repr({'err': str(e)})+'\n')
    time.sleep(1)
