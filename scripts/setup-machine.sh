#!/usr/bin/env bash
# Prepares a fresh machine (a developer's or CI's) for the checks beyond the quick start, the same
# way every time; safe to run again. `npm run setup:machine`, and `.ci/run` before its tests.
#   - PostgreSQL 15 from Debian's packages, its cluster listening on 127.0.0.1:5432, where the
#     `postgres` role connects without a password (trust for that one role and address only), with
#     the `postgres` and `test` databases;
#   - Debian's chromium (the docs page's browser test; playwright never downloads one);
#   - Go (the models and the clients in other languages) when the machine has none or an old one;
#   - a JDK 17 with Maven, and Python's venv module (the clients in other languages), when missing.
# Needs root, or sudo, for the packages and the cluster.
set -euo pipefail

PG_VERSION=15
PG_PORT=5432
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo

# Without package lists (a fresh machine) apt-get finds nothing: update once, then retry.
apt_install() {
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -qq -y --no-install-recommends -o Dpkg::Use-Pty=0 "$@" >/dev/null \
    || { $SUDO apt-get update && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -qq -y --no-install-recommends -o Dpkg::Use-Pty=0 "$@" >/dev/null; }
}

step() { printf '[setup-machine] %s\n' "$*"; }

# --- PostgreSQL -----------------------------------------------------------------------------------
PG_BIN=/usr/lib/postgresql/$PG_VERSION/bin
if [ ! -x "$PG_BIN/postgres" ] || ! command -v pg_ctlcluster >/dev/null; then
  step "installing postgresql-$PG_VERSION"
  apt_install "postgresql-$PG_VERSION" postgresql-client-common
fi

CONF=/etc/postgresql/$PG_VERSION/main
if [ ! -f "$CONF/postgresql.conf" ]; then
  step "creating the cluster $PG_VERSION/main"
  $SUDO pg_createcluster "$PG_VERSION" main --port "$PG_PORT" -- --auth-local=peer --auth-host=scram-sha-256 -E UTF8
fi

# Listen on loopback at the port the tests use, whatever the package's defaults; more connections
# than the default 100, as the reliability tests run several server processes at once.
SETTINGS="# Written by scripts/setup-machine.sh (payments-service contract package).
listen_addresses = '127.0.0.1'
port = $PG_PORT
max_connections = 300"
SETTINGS_FILE=$CONF/conf.d/payments-service.conf
restart=0 reload=0
if [ "$($SUDO cat "$SETTINGS_FILE" 2>/dev/null)" != "$SETTINGS" ]; then
  echo "$SETTINGS" | $SUDO tee "$SETTINGS_FILE" >/dev/null
  restart=1
fi

# pg_hba.conf is read top down and PostgreSQL 15 has no include for it: put the trust line for the
# `postgres` role on 127.0.0.1 first, once. Every other role and address keeps Debian's rules.
HBA=$CONF/pg_hba.conf
HBA_LINE='host all postgres 127.0.0.1/32 trust # payments-service: scripts/setup-machine.sh'
if ! $SUDO grep -qF "$HBA_LINE" "$HBA"; then
  step "allowing the postgres role on 127.0.0.1 without a password"
  { echo "$HBA_LINE"; $SUDO cat "$HBA"; } | $SUDO tee "$HBA.new" >/dev/null
  $SUDO chown --reference="$HBA" "$HBA.new" && $SUDO chmod --reference="$HBA" "$HBA.new"
  $SUDO mv "$HBA.new" "$HBA"
  reload=1
fi

# Start it; where it runs already, apply what changed above (a server that runs as wanted is left
# alone: a second run does not cut a developer's connections).
if ! $SUDO pg_ctlcluster "$PG_VERSION" main status >/dev/null 2>&1; then
  # A server of another origin on the port is used as it is, if it lets `postgres` in (checked below).
  pg_isready -h 127.0.0.1 -p "$PG_PORT" -q || $SUDO pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" main start
elif [ "$restart" = 1 ]; then
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" main restart
elif [ "$reload" = 1 ]; then
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" main reload
fi
for _ in $(seq 1 60); do pg_isready -h 127.0.0.1 -p "$PG_PORT" -q && break; sleep 0.5; done
pg_isready -h 127.0.0.1 -p "$PG_PORT" -q || { echo "PostgreSQL did not start on 127.0.0.1:$PG_PORT" >&2; exit 1; }

psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres "$@"; }
if [ "$(psql_admin -tAc "select 1 from pg_database where datname = 'test'")" != 1 ]; then
  psql_admin -c 'create database test'
fi
step "PostgreSQL $(psql_admin -tAc 'show server_version') on 127.0.0.1:$PG_PORT (postgres, test)"

# --- PgBouncer -------------------------------------------------------------------------------------
# Only the program: the reliability tests run pgbouncer processes of their own, each with a
# generated configuration (transaction mode) on a free port (contract-tests/support/pgbouncer.ts).
if [ ! -x /usr/sbin/pgbouncer ]; then
  step "installing pgbouncer"
  apt_install pgbouncer
fi
step "$(/usr/sbin/pgbouncer --version | head -1)"

# --- Chromium -------------------------------------------------------------------------------------
if [ ! -x /usr/bin/chromium ]; then
  step "installing chromium"
  apt_install chromium
fi

# --- Go and Python ---------------------------------------------------------------------------------
# Go builds the models and the Go clients; a go.mod asking for a newer Go has the go command fetch
# that toolchain from the Go module proxy. Debian's golang-go (1.19) serves only where none is there.
if ! command -v go >/dev/null; then
  step "installing golang-go"
  apt_install golang-go
fi
step "$(go version)"
# The Java client's check compiles with javac through Maven, which also fetches openapi-generator;
# the Python clients' check makes a virtualenv (Debian splits ensurepip off into python3-venv).
if ! command -v javac >/dev/null || ! command -v mvn >/dev/null; then
  step "installing openjdk-17-jdk-headless and maven"
  apt_install openjdk-17-jdk-headless maven
fi
if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  step "installing python3-venv"
  apt_install python3-venv
fi
step "$(javac -version 2>&1), $(mvn -v 2>/dev/null | sed -n '1s/\x1b\[[0-9;]*m//gp')"
# The Python models parse date-times with python-dateutil.
if ! python3 -c 'import dateutil.parser' 2>/dev/null; then
  step "installing python-dateutil"
  python3 -m pip install --quiet python-dateutil==2.9.0.post0
fi
