#!/bin/bash
# usage: prof.sh tag  — waits for the run's console markers, profiles the service: new products 2-3, then churn
d=/tmp/bench/runs/$1; lib=/tmp/ap/linux-x64/libasyncProfiler.so
until [ -f $d/console.txt ] && grep -qa "new products 1/3: " $d/console.txt; do sleep 0.5; done
pid=$(pgrep -f "CatalogViewsCli serve" | head -1)
bpid=$(pgrep -f "KafkaBroker" | head -1)
jcmd $pid JVMTI.agent_load $lib '"start,event=cpu,interval=1ms,threads"' > /dev/null
jcmd $bpid JVMTI.agent_load $lib '"start,event=cpu,interval=1ms,threads"' > /dev/null
until grep -qa "new products 3/3: " $d/console.txt; do sleep 0.5; done
jcmd $pid JVMTI.agent_load $lib "\"stop,file=$d/load.collapsed,collapsed\"" > /dev/null
jcmd $bpid JVMTI.agent_load $lib "\"stop,file=$d/broker-load.collapsed,collapsed\"" > /dev/null
until grep -qa "churn: " $d/console.txt; do sleep 0.5; done
jcmd $pid JVMTI.agent_load $lib '"start,event=cpu,interval=1ms,threads"' > /dev/null
until grep -qa "churn wrote" $d/console.txt; do sleep 0.5; done
jcmd $pid JVMTI.agent_load $lib "\"stop,file=$d/churn.collapsed,collapsed\"" > /dev/null
echo done
