#!/usr/bin/env python3
# samples CPU (utime+stime) of java processes every second, by role; writes "t role cores" lines
import os, sys, time
out = open(sys.argv[1], 'w')
console = sys.argv[2] if len(sys.argv) > 2 else None
hz = os.sysconf('SC_CLK_TCK')
prev = {}
def role(cmd):
    if 'KafkaBroker' in cmd: return 'broker'
    if 'CatalogViewsCli serve' in cmd: return 'service'
    if '-jar /tmp/jars' in cmd and 'bench.jar' in cmd: return 'harness'
    return 'other'
while True:
    now = time.time()
    cur = {}
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try:
            cmd = open(f'/proc/{p}/cmdline','rb').read().replace(b'\0',b' ').decode(errors='ignore')
            if 'java' not in cmd: continue
            st = open(f'/proc/{p}/stat').read().rsplit(')',1)[1].split()
            cur[p] = (role(cmd), int(st[11]) + int(st[12]))
        except Exception: pass
    agg = {}
    for p,(r,t) in cur.items():
        if p in prev: agg[r] = agg.get(r,0) + (t - prev[p][1])/hz
    prev = cur
    parts = 0
    if console:
        try: parts = open(console,'rb').read().count(b'events/s materialized')
        except Exception: pass
    out.write(f"{now:.0f} parts={parts} " + " ".join(f"{r}={v:.2f}" for r,v in sorted(agg.items())) + "\n"); out.flush()
    time.sleep(1)
