import sys
for r in sys.argv[1:]:
    acc={}
    try:
        for line in open(f'runs/{r}/cpu.txt'):
            for kv in line.split()[1:]:
                k,v=kv.split('='); acc[k]=acc.get(k,0)+float(v)
    except FileNotFoundError: continue
    print(r, " ".join(f"{k}={v:.0f}s" for k,v in sorted(acc.items())), f"service µs/event={acc.get('service',0)/2.3e6*1e6:.0f} broker={acc.get('broker',0)/2.3e6*1e6:.0f}")
