#!/bin/bash
# step 45 A/B: A = main 9c829aa (m6), B = records sort (s45); order A B B A A B
i=0
for arm in A B B A A B; do
  i=$((i+1))
  if [ $arm = A ]; then jar=/tmp/jars/m6/catalog-views.jar; else jar=/tmp/jars/s45/catalog-views.jar; fi
  /tmp/bench/ab2.sh s45-$i$arm $jar
done
echo all-done
