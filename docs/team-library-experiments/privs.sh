#!/bin/sh
# Experiment 5 (setup): TLS on the throwaway cluster (./cluster.sh start first). A private CA and a server
# certificate for this host's non-loopback address; the server listens on loopback and that address;
# pg_hba: loopback may use plain TCP (scram), every other address must use TLS (hostnossl ... reject).
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/cluster.env"
IP=$(hostname -I | awk '{print $1}')
C="$PGDATA_DIR/certs"; mkdir -p "$C"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=team-test-ca" -keyout "$C/ca.key" -out "$C/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=$IP" -keyout "$C/server.key" -out "$C/server.csr" 2>/dev/null
printf "subjectAltName=IP:%s,IP:127.0.0.1,DNS:localhost\n" "$IP" > "$C/san.ext"
openssl x509 -req -in "$C/server.csr" -CA "$C/ca.crt" -CAkey "$C/ca.key" -CAcreateserial -days 2 -extfile "$C/san.ext" -out "$C/server.crt" 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=other-ca" -keyout "$C/other.key" -out "$C/other.crt" 2>/dev/null
[ -n "$AS" ] && chown -R nobody "$C"
chmod 600 "$C/server.key"
$AS sh -c "cat >> $PGDATA_DIR/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1,$IP'
ssl = on
ssl_cert_file = '$C/server.crt'
ssl_key_file = '$C/server.key'
ssl_min_protocol_version = 'TLSv1.2'
password_encryption = 'scram-sha-256'
CONF
$AS sh -c "cat > $PGDATA_DIR/data/pg_hba.conf" <<HBA
# TYPE    DATABASE USER        ADDRESS          METHOD
local     all      team_admin                   trust
host      all      team_admin  127.0.0.1/32     trust
host      all      all         127.0.0.1/32     scram-sha-256
hostssl   all      all         0.0.0.0/0        scram-sha-256
hostnossl all      all         0.0.0.0/0        reject
HBA
$AS pg_ctl -D "$PGDATA_DIR/data" -w -m fast restart -l "$PGDATA_DIR/log" >/dev/null
echo "TLS on; IP=$IP; CA=$C/ca.crt"
