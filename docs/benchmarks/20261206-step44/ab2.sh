#!/bin/bash
# usage: ab.sh tag servicejar [service-env]   env: UPDATES (1000000) CHURN (300000) PRODUCTS (1000000)
tag=$1; jar=$2; senv=$3
d=/tmp/bench/runs/$tag; mkdir -p $d
python3 /tmp/bench/procmon.py $d/cpu.txt $d/console.txt & mon=$!; python3 /tmp/bench/thrmon.py $d/thr.txt $d/console.txt & mon2=$!
args=(--service-classpath $jar --products ${PRODUCTS:-1000000} --updates ${UPDATES:-1000000} --churn-updates ${CHURN:-300000}
  --no-postgres --no-ceiling --no-restore --no-pass-through --freshness-rate 0 --classes get-by-id --duration 2s --warmup 1s
  --jit-warmup 0s --runs 3 --concurrency 16 --output-dir $d/out)
[ -n "$senv" ] && args+=(--service-env "$senv")
date +%s > $d/start
java -jar ${BENCHJAR:-/tmp/jars/m5/catalog-views-bench.jar} "${args[@]}" > $d/console.txt 2>&1
echo rc=$? >> $d/console.txt
date +%s > $d/end
kill $mon $mon2
