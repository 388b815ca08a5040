#!/bin/sh
# Start/stop a throwaway PostgreSQL 15 cluster as this user.
# usage: ./cluster.sh start  -> prints PGPORT and PGDATA in ./cluster.env ; ./cluster.sh stop
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
case "$1" in
start)
  D=$(mktemp -d /tmp/team-pg.XXXXXX)
  trap '[ -f "$D/data/PG_VERSION" ] || rm -rf "$D"' EXIT
  # initdb/postgres refuse uid 0: when run as root, the cluster runs as nobody (no login, no home)
  AS=""
  if [ "$(id -u)" = 0 ]; then chown nobody "$D"; chmod 755 "$D"; AS="setpriv --reuid=nobody --regid=nogroup --clear-groups --"; fi
  PORT=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  $AS initdb -D "$D/data" -U team_admin --auth=trust -E UTF8 --no-locale >/dev/null
  # small, honest settings for a 2-core shared box; fsync stays on (default)
  $AS sh -c "cat >> $D/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$D'
max_connections = 60
shared_buffers = 256MB
work_mem = 64MB
max_parallel_workers_per_gather = 2
CONF
  $AS pg_ctl -D "$D/data" -l "$D/log" -w start >/dev/null
  echo "PGHOST=127.0.0.1 PGPORT=$PORT PGUSER=team_admin PGDATABASE=postgres PGDATA_DIR=$D AS='$AS'" > "$HERE/cluster.env"
  cat "$HERE/cluster.env"
  ;;
stop)
  . "$HERE/cluster.env"
  $AS pg_ctl -D "$PGDATA_DIR/data" -m fast -w stop >/dev/null && rm -rf "$PGDATA_DIR" && rm -f "$HERE/cluster.env" && echo stopped
  ;;
esac
