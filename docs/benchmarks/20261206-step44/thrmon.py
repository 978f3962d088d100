#!/usr/bin/env python3
# per-thread-group CPU of the service each second, with the console's part count: "t parts=N stream=.. low=.. high=.. other=.."
import os, sys, time
out=open(sys.argv[1],'w'); console=sys.argv[2]; hz=os.sysconf('SC_CLK_TCK'); prev={}
def grp(c):
    if 'StreamThread' in c or 'StreamThr' in c or c.startswith('catalog-views'): return 'stream'
    if c.startswith('rocksdb:low'): return 'low'
    if c.startswith('rocksdb:high'): return 'high'
    return 'other'
while True:
    pid=None
    for p in os.listdir('/proc'):
        if p.isdigit():
            try:
                if b'CatalogViewsCli\x00serve' in open(f'/proc/{p}/cmdline','rb').read(): pid=p
            except Exception: pass
    agg={}
    if pid:
        for t in os.listdir(f'/proc/{pid}/task'):
            try:
                comm=open(f'/proc/{pid}/task/{t}/comm').read().strip()
                st=open(f'/proc/{pid}/task/{t}/stat').read().rsplit(')',1)[1].split()
                v=int(st[11])+int(st[12]); k=(pid,t)
                if k in prev: agg[grp(comm)]=agg.get(grp(comm),0)+(v-prev[k])/hz
                prev[k]=v
            except Exception: pass
    try: parts=open(console,'rb').read().count(b'events/s materialized')
    except Exception: parts=0
    out.write(f"{time.time():.0f} parts={parts} "+" ".join(f"{k}={v:.2f}" for k,v in sorted(agg.items()))+"\n"); out.flush()
    time.sleep(1)
