import collections,re,sys
# thrcmp.py name... : CPU seconds per process kind and thread group, per run
def load(name):
    rows=[l.split() for l in open('/tmp/bench/%s-thr.txt'%name)]
    last={}
    for t,p,tid,n,c in rows: last[(p,tid,n)]=int(c)
    tot=collections.Counter()
    for (p,tid,n),c in last.items():
        g=re.sub(r'\d+','N',n)
        if p[0]=='S':
            g={'catalog-views-b':'stream','rocksdb:low':'compact','rocksdb:high':'flush','CN_CompilerThre':'jit','GC_Thread#N':'gc','kafka-producer-':'producer','http-N':'http'}.get(g,'other')
            tot['S.'+g]+=c
        else:
            tot[p[0]+'.all']+=c
    return tot
names=sys.argv[1:]
ts=[load(n) for n in names]
keys=sorted(set(k for t in ts for k in t))
print('%-12s'%''+''.join('%10s'%n for n in names))
for k in keys: print('%-12s'%k+''.join('%10.1f'%(t[k]/100) for t in ts))
print('%-12s'%'S.total'+''.join('%10.1f'%(sum(v for k,v in t.items() if k.startswith('S.'))/100) for t in ts))
