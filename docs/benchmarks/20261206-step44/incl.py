import sys,collections
f=sys.argv[1]; filt=sys.argv[2]; pats=sys.argv[3:]
tot=0; c=collections.Counter()
for line in open(f):
    stack,n=line.rsplit(' ',1); n=int(n); fr=stack.split(';')
    if filt not in fr[0]: continue
    tot+=n
    for p in pats:
        if any(p in x for x in fr[1:]): c[p]+=n
print("samples",tot)
for p in pats: print(f"{c[p]/tot*100:5.1f}% {p}")
