#!/usr/bin/env bash
# Checks docker/compose.yaml and docker/Dockerfile without a Docker engine:
#   - `docker-compose config` (Debian's docker-compose package) accepts the compose file;
#   - the Kafka image is the official apache/kafka pinned to the Kafka client version of pom.xml;
#   - three catalog-views instances, each with its own advertised URL and state volume, plus the loader;
#   - the Dockerfile is multi-stage, runs as a non-root user, keeps the state dir on a volume and health-checks
#     /health/ready.
# Exit 0 when all hold; prints what failed otherwise. Used by DockerFilesTest (tests module) when
# docker-compose is on the PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
compose="$here/compose.yaml"
dockerfile="$here/Dockerfile"
fail() { echo "docker/validate.sh: $*" >&2; exit 1; }

command -v docker-compose > /dev/null || fail "docker-compose is not on the PATH (Debian: apt-get install docker-compose)"
docker-compose -f "$compose" config --quiet || fail "docker-compose config rejects $compose"
config="$(docker-compose -f "$compose" config)"

kafka_version="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$root/pom.xml" | head -1)"
[ -n "$kafka_version" ] || fail "no <kafka.version> in pom.xml"
grep -q "image: apache/kafka:${kafka_version}\$" <<< "$config" \
  || fail "the kafka service must use apache/kafka:${kafka_version} (the client version in pom.xml)"
grep -q "KAFKA_PROCESS_ROLES: broker,controller" <<< "$config" || fail "kafka must run in KRaft mode (broker,controller)"

services="$(docker-compose -f "$compose" config --services)"
for s in kafka catalog-views-1 catalog-views-2 catalog-views-3 demo-loader; do
  grep -qx "$s" <<< "$services" || fail "service $s is missing"
done
urls="$(grep -o 'CATALOG_VIEWS_ADVERTISED_URL: .*' <<< "$config" | sort -u | wc -l)"
[ "$urls" -eq 3 ] || fail "each catalog-views instance needs its own CATALOG_VIEWS_ADVERTISED_URL (found $urls distinct)"
states="$(grep -o 'catalog-views-[0-9]-state:/var/lib/catalog-views' <<< "$config" | sort -u | wc -l)"
[ "$states" -eq 3 ] || fail "each catalog-views instance needs its own state volume (found $states)"
grep -q 'published: 8080' <<< "$config" || fail "no published port to query"
grep -q 'publish' <<< "$config" && grep -q -- '--synthetic' <<< "$config" || fail "the loader must publish the demo catalog"

[ "$(grep -c '^FROM ' "$dockerfile")" -ge 2 ] || fail "the Dockerfile must be multi-stage"
grep -q '^FROM .* AS build' "$dockerfile" || fail "the Dockerfile needs a build stage"
user="$(grep '^USER ' "$dockerfile" | tail -1 | awk '{print $2}')"
[ -n "$user" ] && [ "${user%%:*}" != root ] && [ "${user%%:*}" != 0 ] || fail "the image must run as a non-root user"
grep -q '^VOLUME .*/var/lib/catalog-views' "$dockerfile" || fail "the state dir must be a volume"
grep -q 'CATALOG_VIEWS_STATE_DIR=/var/lib/catalog-views' "$dockerfile" || fail "the state dir must be the volume"
grep -q 'HEALTHCHECK' "$dockerfile" && grep -q '/health/ready' "$dockerfile" \
  || fail "the Dockerfile must health-check /health/ready"

echo "docker/validate.sh: compose.yaml and Dockerfile are valid (kafka ${kafka_version}, 3 instances, loader)"
