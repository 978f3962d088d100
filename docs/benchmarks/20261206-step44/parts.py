import sys
# per-part service/broker CPU per event: parts 1-3 new (333k each), 4-6 changes, 7-9 churn (100k each)
ev=[333333]*6+[100000]*3
for r in sys.argv[1:]:
    acc={}
    for line in open(f'runs/{r}/cpu.txt'):
        p=line.split()
        if not p[1].startswith('parts='): continue
        k=int(p[1][6:])
        d=acc.setdefault(k,{})
        for kv in p[2:]:
            a,v=kv.split('='); d[a]=d.get(a,0)+float(v)
    out=[]
    for k in range(9):
        d=acc.get(k,{})
        out.append(f"{d.get('service',0)/ev[k]*1e6:4.0f}/{d.get('broker',0)/ev[k]*1e6:2.0f}")
    print(r, "svc/broker µs per event, parts 1-9:", " ".join(out))
