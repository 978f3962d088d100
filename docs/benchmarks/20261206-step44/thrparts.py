import sys
ev=[333333]*6+[100000]*3
for r in sys.argv[1:]:
    acc={}
    for line in open(f'runs/{r}/thr.txt'):
        p=line.split(); k=int(p[1][6:])
        for kv in p[2:]:
            a,v=kv.split('='); acc.setdefault(k,{}); acc[k][a]=acc[k].get(a,0)+float(v)
    print(r, "CPU s per part (stream/low/high/other):")
    for k in sorted(acc):
        d=acc[k]; n=ev[k] if k<9 else 0
        print(f"  part {k+1}: " + " ".join(f"{g}={d.get(g,0):5.1f}" for g in ['stream','low','high','other']) + (f"  µs/event stream={d.get('stream',0)/n*1e6:.0f} low={d.get('low',0)/n*1e6:.0f}" if n else ""))
