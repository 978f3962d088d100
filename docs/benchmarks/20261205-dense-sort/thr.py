import os,sys,time
# thr.py out : every 3 s, cumulative CPU ticks of every thread of the service process (tid, name)
out=open(sys.argv[1],'w')
while True:
    t=time.time()
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try: cmd=open('/proc/%s/cmdline'%p,'rb').read().decode(errors='replace')
        except Exception: continue
        if 'java' not in cmd: continue
        if 'KafkaBroker' in cmd or 'kafka.Kafka' in cmd: tag='B'
        elif '--service-classpath' in cmd: tag='H'
        elif 'catalog-views' in cmd: tag='S'
        else: continue
        try: tids=os.listdir('/proc/%s/task'%p)
        except Exception: continue
        for tid in tids:
            try: s=open('/proc/%s/task/%s/stat'%(p,tid)).read()
            except Exception: continue
            a=s.index('('); b=s.rindex(')')
            name=s[a+1:b].replace(' ','_'); f=s[b+2:].split()
            out.write('%.2f %s %s %s %d\n'%(t,tag+p,tid,name,int(f[11])+int(f[12])))
    out.flush()
    time.sleep(3)
