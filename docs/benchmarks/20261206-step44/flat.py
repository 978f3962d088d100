import sys,collections
# usage: flat.py file [thread-substring] : top self frames and thread totals
f=sys.argv[1]; filt=sys.argv[2] if len(sys.argv)>2 else None
thr=collections.Counter(); self_=collections.Counter(); tot=0
incl=collections.Counter()
for line in open(f):
    stack,n=line.rsplit(' ',1); n=int(n)
    frames=stack.split(';')
    t=frames[0]
    import re
    tn=re.sub(r' tid=\d+','',t); tn=re.sub(r'-\d+\]',']',tn); tn=re.sub(r'#\d+','',tn); tn=re.sub(r'[0-9a-f]{8}-[0-9a-f-]{27}','X',tn)
    thr[tn]+=n; tot+=n
    if filt and filt not in t: continue
    self_[frames[-1]]+=n
    for fr in set(frames[1:]): incl[fr]+=n
print("total samples",tot)
for k,v in thr.most_common(15): print(f"{v/tot*100:6.1f}% {k}")
sel=sum(v for k,v in thr.items() if (not filt or filt in k))
print("--- self (of selection", sel,")")
for k,v in self_.most_common(int(sys.argv[3]) if len(sys.argv)>3 else 30): print(f"{v/sel*100:6.1f}% {k[:150]}")
