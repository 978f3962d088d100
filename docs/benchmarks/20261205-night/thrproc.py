import collections,re,sys
# thrproc.py name : CPU seconds per thread group for each service process (in start order)
rows=[l.split() for l in open('/tmp/bench/%s-thr.txt'%sys.argv[1])]
last={}; start={}
for t,p,tid,n,c in rows:
    last[(p,tid,n)]=int(c); start.setdefault(p,float(t))
by=collections.defaultdict(collections.Counter)
for (p,tid,n),c in last.items():
    if p[0]!='S': continue
    g=re.sub(r'\d+','N',n)
    g={'catalog-views-b':'stream/updater','rocksdb:low':'compact','rocksdb:high':'flush','CN_CompilerThre':'jit','GC_Thread#N':'gc'}.get(g,'other')
    by[p][g]+=c
for p in sorted(by,key=lambda p:start[p]):
    c=by[p]; print(p, ' '.join('%s %.1f'%(k,v/100) for k,v in sorted(c.items())), 'total %.1f'%(sum(c.values())/100))
