#!/usr/bin/env bash
# The PostgreSQL peer of the benchmark harness (catalog-views bench --postgres).
#
#   postgres.sh start <data-dir> <port> [shared-buffers-mb]
#                                         installs PostgreSQL from Debian when missing, initdb into <data-dir>,
#                                         starts it bound to 127.0.0.1:<port> only, prints "READY <port>"
#   postgres.sh stop <data-dir>           stops it (fast shutdown)
#
# The server runs as the "postgres" system user when this script runs as root (initdb refuses root), with
# trust authentication on 127.0.0.1 (a throwaway benchmark instance reachable from this machine only).
# Settings are what a DBA would give a 2-core, 24 GB machine shared with other services: shared buffers as
# given (the harness passes the service's RocksDB bound, so both get the same cache; 512 MB if not given), SSD costs, no JIT for short OLTP queries, synchronous_commit=off (a read model fed from Kafka can
# replay; fsync stays on).
set -euo pipefail

cmd="${1:?usage: postgres.sh start <data-dir> <port> | stop <data-dir>}"
data="${2:?data dir}"

find_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  done
  return 1
}

as_pg() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    port="${3:?port}"
    shared_buffers_mb="${4:-512}"
    if ! bin="$(find_bin)"; then
      echo "PostgreSQL server binaries missing: installing Debian's postgresql package" >&2
      if [ "$(id -u)" != "0" ]; then echo "need root (or sudo) to apt-get install postgresql" >&2; exit 2; fi
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >&2
      apt-get install -y -qq postgresql >&2
      # The package's own cluster is not used; keep it from taking memory and port 5432.
      (service postgresql stop || pg_ctlcluster --help >/dev/null 2>&1 || true) >/dev/null 2>&1 || true
      bin="$(find_bin)"
    fi
    mkdir -p "$data"
    if [ "$(id -u)" = "0" ]; then chown postgres:postgres "$data"; fi
    chmod 700 "$data"
    if [ ! -f "$data/PG_VERSION" ]; then
      as_pg "$bin/initdb" -D "$data" --auth=trust --username=postgres --encoding=UTF8 --locale=C >"$data.initdb.log" 2>&1 \
        || { cat "$data.initdb.log" >&2; exit 1; }
      cat >>"$data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$data'
max_connections = 200
shared_buffers = ${shared_buffers_mb}MB
effective_cache_size = 8GB
work_mem = 16MB
maintenance_work_mem = 512MB
random_page_cost = 1.1
effective_io_concurrency = 200
jit = off
synchronous_commit = off
wal_level = minimal
max_wal_senders = 0
max_wal_size = 8GB
checkpoint_timeout = 15min
autovacuum = on
log_min_messages = warning
EOF
    else
      sed -i "s/^port = .*/port = $port/" "$data/postgresql.conf"
      sed -i "s/^shared_buffers = .*/shared_buffers = ${shared_buffers_mb}MB/" "$data/postgresql.conf"
    fi
    as_pg "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 120 start >&2
    echo "READY $port"
    ;;
  stop)
    if bin="$(find_bin)" && [ -f "$data/postmaster.pid" ]; then
      as_pg "$bin/pg_ctl" -D "$data" -m fast -w -t 120 stop >&2 || true
    fi
    ;;
  *)
    echo "unknown command $cmd" >&2; exit 2 ;;
esac
