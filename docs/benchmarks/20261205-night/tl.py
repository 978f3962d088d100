import collections,re,sys
# tl.py name [procindex]: per-sample-interval cores used by groups of the Nth service process (default last), broker, harness
rows=[l.split() for l in open('/tmp/bench/%s-thr.txt'%sys.argv[1])]
procs=[];
for t,p,tid,n,c in rows:
    if p[0]=='S' and p not in procs: procs.append(p)
target=procs[int(sys.argv[2]) if len(sys.argv)>2 else -1]
def grp(p,n):
    if p[0]=='B': return 'B'
    if p[0]=='H': return 'H'
    g=re.sub(r'\d+','N',n)
    return {'catalog-views-b':'st','rocksdb:low':'cmp','rocksdb:high':'fl','CN_CompilerThre':'jit','GC_Thread#N':'gc'}.get(g,'oth')
prev={}; series=collections.OrderedDict()
for t,p,tid,n,c in rows:
    if p[0]=='S' and p!=target: continue
    t=float(t); c=int(c); k=(p,tid)
    ts=round(t)
    if k in prev:
        series.setdefault(ts,collections.Counter())[grp(p,n)]+=c-prev[k]
    prev[k]=c
keys=['st','cmp','fl','jit','gc','oth','B','H']
t0=None; lt=None
print('   t  '+' '.join('%5s'%k for k in keys)+'   all')
for ts,c in series.items():
    if sum(c[k] for k in keys if k not in 'BH')==0 and t0 is None: continue
    if t0 is None: t0=ts
    dt=(ts-lt) if lt else 3
    lt=ts
    print('%4d  '%(ts-t0)+' '.join('%5.2f'%(c[k]/100/dt) for k in keys)+'  %5.2f'%(sum(c.values())/100/dt))
