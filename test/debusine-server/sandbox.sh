#!/usr/bin/env bash
# Real Debusine servers for the tests, built from Debian's packages in debootstrap chroots.
#
#   sandbox.sh up [current|earlier|all]     build (once, cached) and start; idempotent
#   sandbox.sh down [current|earlier|all]   stop what `up` started (pid files only)
#   sandbox.sh status                       show what runs
#   sandbox.sh rebuild FLAVOUR              throw the cached chroot away and build anew
#
# Flavours: current = debusine 0.16 from trixie-backports (server, worker, client, signing
#                     worker, and the server over TLS as well: see repositories.sh);
#           earlier = debusine 0.11 from trixie (server and worker).
# Each flavour writes $DEBUSINE_SANDBOX_HOME/FLAVOUR/sandbox.json with its URLs, scope,
# workspaces, users and tokens. Everything listens on 127.0.0.1 on ports of its own.
set -euo pipefail

SANDBOX_HOME=${DEBUSINE_SANDBOX_HOME:-/var/lib/debusine-desktop/sandboxes}
MIRROR=${DEBUSINE_SANDBOX_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${DEBUSINE_SANDBOX_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
# Bump when the build recipe changes, so cached chroots built by an older recipe are rebuilt.
RECIPE=4

# shellcheck source=real-work.sh
source "$(dirname "${BASH_SOURCE[0]}")/real-work.sh"
# shellcheck source=developers.sh
source "$(dirname "${BASH_SOURCE[0]}")/developers.sh"
# shellcheck source=repositories.sh
source "$(dirname "${BASH_SOURCE[0]}")/repositories.sh"

log() { printf '[sandbox %s] %s\n' "${FLAVOUR:-}" "$*" >&2; }
die() { log "error: $*"; exit 1; }

flavour_settings() {
  FLAVOUR=$1
  case $FLAVOUR in
    current)
      HTTP_PORT=${DEBUSINE_SANDBOX_CURRENT_PORT:-18016}
      REDIS_PORT=${DEBUSINE_SANDBOX_CURRENT_REDIS_PORT:-16416}
      QUEUE_PORT=${DEBUSINE_SANDBOX_CURRENT_FTP_PORT:-18021}
      TLS_PORT=${DEBUSINE_SANDBOX_CURRENT_TLS_PORT:-18443}
      APT_TARGET=trixie-backports
      PACKAGES="debusine-server debusine-worker debusine-client $SIGNING_PACKAGE"
      EXTRA_PACKAGES="$WORKER_TOOLS $DEVELOPER_TOOLS"
      ;;
    earlier)
      HTTP_PORT=${DEBUSINE_SANDBOX_EARLIER_PORT:-18011}
      REDIS_PORT=${DEBUSINE_SANDBOX_EARLIER_REDIS_PORT:-16411}
      APT_TARGET=trixie
      PACKAGES="debusine-server debusine-worker debusine-client daphne"
      # The earlier flavour's worker runs noop tasks only.
      EXTRA_PACKAGES=
      ;;
    *) die "unknown flavour '$FLAVOUR' (expected current, earlier or all)" ;;
  esac
  DIR=$SANDBOX_HOME/$FLAVOUR
  ROOT=$DIR/root
  RUN=$DIR/run
  LOGS=$DIR/logs
  STATE=$DIR/sandbox.json
}

in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
as_server() {
  chroot --userspec=debusine-server:debusine-server "$ROOT" /usr/bin/env -i \
    PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/var/lib/debusine/server "$@"
}
admin() { as_server debusine-admin "$@"; }

# ---------------------------------------------------------------------------------------
# Build (cached)

build() {
  if [[ -f $ROOT/.sandbox-recipe && $(cat "$ROOT/.sandbox-recipe") == "$RECIPE" ]]; then
    ensure_packages
    if [[ $FLAVOUR == current ]]; then ensure_signing_package; fi
    return
  fi
  stop_all
  unmount_all
  log "building the chroot from nothing (debootstrap + apt, a few minutes)"
  local tmp=$DIR/root.new
  rm -rf "$tmp" "$ROOT"
  mkdir -p "$DIR"
  debootstrap --variant=minbase trixie "$tmp" "$MIRROR" >"$DIR/debootstrap.log" 2>&1 \
    || die "debootstrap failed; see $DIR/debootstrap.log"
  cat >"$tmp/etc/apt/sources.list" <<EOF
deb $MIRROR trixie main
deb $MIRROR trixie-updates main
deb $SECURITY_MIRROR trixie-security main
EOF
  if [[ $APT_TARGET == trixie-backports ]]; then
    echo "deb $MIRROR trixie-backports main" >>"$tmp/etc/apt/sources.list"
  fi
  # No init system here: packages must not try to start their services.
  printf '#!/bin/sh\nexit 101\n' >"$tmp/usr/sbin/policy-rc.d"
  chmod 755 "$tmp/usr/sbin/policy-rc.d"
  {
    chroot "$tmp" apt-get update
    # dbconfig-no-thanks: the database is set up below, not by the maintainer scripts.
    chroot "$tmp" env DEBIAN_FRONTEND=noninteractive apt-get install -y \
      --no-install-recommends -t "$APT_TARGET" $PACKAGES postgresql redis-server \
      dbconfig-no-thanks ca-certificates
    if [[ -n $EXTRA_PACKAGES ]]; then
      chroot "$tmp" env DEBIAN_FRONTEND=noninteractive apt-get install -y \
        --no-install-recommends $EXTRA_PACKAGES
    fi
    chroot "$tmp" apt-get clean
  } >"$DIR/apt.log" 2>&1 || die "apt-get in the chroot failed; see $DIR/apt.log"
  echo "$RECIPE" >"$tmp/.sandbox-recipe"
  mv "$tmp" "$ROOT"
}

# ---------------------------------------------------------------------------------------
# Mounts and processes

mount_all() {
  mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
  mkdir -p "$ROOT/dev/shm"
  # Celery's multiprocessing needs a writable /dev/shm.
  mountpoint -q "$ROOT/dev/shm" || mount -t tmpfs -o mode=1777,size=256m shm "$ROOT/dev/shm"
  mountpoint -q "$ROOT/run" || mount -t tmpfs -o mode=755 run "$ROOT/run"
}

unmount_all() {
  [[ -d $ROOT ]] || return 0
  local m
  for m in run dev/shm proc; do
    if mountpoint -q "$ROOT/$m" 2>/dev/null; then
      umount "$ROOT/$m" 2>/dev/null || umount -l "$ROOT/$m"
    fi
  done
}

# is_ours NAME: true when the pid file names a live process whose root is this chroot. The
# root is compared by device and inode, not by path: a process that entered it with
# pivot_root (start_pivoted) sees it as "/", and its path from here depends on namespaces.
is_ours() {
  local pidfile=$RUN/$1.pid pid root
  [[ -f $pidfile ]] || return 1
  pid=$(cat "$pidfile")
  [[ $pid =~ ^[0-9]+$ && -d /proc/$pid ]] || return 1
  root=$(stat -L -c '%d:%i' "/proc/$pid/root" 2>/dev/null) || return 1
  [[ $root == "$(stat -c '%d:%i' "$ROOT")" ]]
}

# start NAME USER COMMAND...: runs COMMAND in the chroot as USER, in a session of its own,
# and records its pid.
start() {
  local name=$1 user=$2
  shift 2
  if is_ours "$name"; then return; fi
  mkdir -p "$RUN" "$LOGS"
  setsid chroot --userspec="$user:$user" "$ROOT" /usr/bin/env -i \
    PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME="$(home_of "$user")" "$@" \
    >>"$LOGS/$name.log" 2>&1 </dev/null &
  echo $! >"$RUN/$name.pid"
}

home_of() { in_root getent passwd "$1" | cut -d: -f6; }

# stop NAME: signals the process group that `start` created, then waits for it.
stop() {
  local name=$1 pid i
  if ! is_ours "$name"; then
    rm -f "$RUN/$name.pid"
    return
  fi
  pid=$(cat "$RUN/$name.pid")
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  # Graceful shutdowns wait for open websockets (gunicorn) and running tasks (Celery); a
  # test server has nothing worth waiting for.
  for i in $(seq 1 15); do
    kill -0 -- "-$pid" 2>/dev/null || break
    sleep 0.2
  done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$RUN/$name.pid"
}

SERVICES=(watchdog signing worker noop-worker upload-queue beat celery scheduler web-tls web redis)

# The services a flavour runs: only the current one has a second worker, an upload queue, a
# signing worker and the server over TLS, only the earlier one the watchdog of its worker
# (worker-watchdog.sh).
services() {
  local s
  for s in "${SERVICES[@]}"; do
    if [[ $s == noop-worker || $s == upload-queue || $s == signing || $s == web-tls ]]; then
      [[ $FLAVOUR == current ]] && echo "$s"
    elif [[ $s == watchdog ]]; then
      [[ $FLAVOUR == earlier ]] && echo "$s"
    else
      echo "$s"
    fi
  done
}

stop_all() {
  [[ -d $RUN ]] || return 0
  local s
  for s in "${SERVICES[@]}"; do stop "$s"; done
  if [[ -d $ROOT && -f $RUN/postgresql.started ]]; then
    in_root pg_ctlcluster "$(ls "$ROOT/etc/postgresql")" main stop -m fast >/dev/null 2>&1 || true
    rm -f "$RUN/postgresql.started"
  fi
  stop_strays
}

# Whatever still runs in the chroot once its services are stopped: a service whose pid file
# names another process (two `up`s at once each record their own, and only one set runs).
# Left running, it holds the port the next `up` needs, and that `up` fails.
stop_strays() {
  [[ -d $ROOT ]] || return 0
  local want proc pid
  want=$(stat -c '%d:%i' "$ROOT")
  for proc in /proc/[0-9]*; do
    pid=${proc#/proc/}
    [[ $(stat -L -c '%d:%i' "$proc/root" 2>/dev/null) == "$want" ]] || continue
    log "stopping pid $pid, left running in the chroot: $(tr '\0' ' ' <"$proc/cmdline" 2>/dev/null | cut -c1-80)"
    kill -KILL "$pid" 2>/dev/null || true
  done
}

# ---------------------------------------------------------------------------------------
# Configuration (rewritten on every `up`, so a changed port takes effect)

# The worker of Debusine 0.16.2 sends a running task's output to the server (which streams
# it as the work request's live log) only until the first command ends: its sending loop
# (_drain_outgoing in debusine/client/server_notifications.py) stops at the first
# `log_data_end` and is started again only when the worker reconnects. So every task after
# the first of each connection had no live log. The loop carries on here instead (its
# `break` after "End of log stream" becomes `continue`); a no-op where the loop is already
# fixed or the file differs. Says "patched" when it changed the file.
patch_worker_live_log() {
  in_root python3 - <<'PY'
import pathlib, re
import debusine.client.server_notifications as module
path = pathlib.Path(module.__file__)
text = path.read_text()
fixed = re.sub(
    r'(logger\.debug\("End of log stream"\)\n(\s+)self\._outgoing\.task_done\(\)\n)\s+break\n',
    r'\1\2continue\n',
    text,
)
if fixed != text:
    path.write_text(fixed)
    print("patched")
PY
}

# sbuild writes its build log to stdout as well as to the .build file only when "verbose",
# which it is by default only on a terminal; the worker runs it on pipes, so a running
# build's live log held the worker's own lines and sbuild's last one, never the build. The
# worker's user (whose home sbuild falls back to: the worker runs it without HOME) asks for
# it in its sbuild configuration. Written on every start.
configure_sbuild_live_log() {
  local dir=$ROOT/var/lib/debusine/worker/.config/sbuild
  mkdir -p "$dir"
  cat >"$dir/config.pl" <<'EOF'
# Written by test/debusine-server/sandbox.sh: the build log on stdout too, for the live log.
$verbose = 1;
1;
EOF
  in_root chown -R debusine-worker:debusine-worker /var/lib/debusine/worker/.config
}

configure() {
  if [[ $FLAVOUR == current ]]; then
    patch_worker_live_log >/dev/null
    configure_sbuild_live_log
  fi
  PG_VERSION=$(ls "$ROOT/etc/postgresql")
  # PostgreSQL listens on its socket inside the chroot only: no TCP port to collide with.
  mkdir -p "$ROOT/etc/postgresql/$PG_VERSION/main/conf.d"
  cat >"$ROOT/etc/postgresql/$PG_VERSION/main/conf.d/sandbox.conf" <<'EOF'
listen_addresses = ''
port = 5432
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
  cat >"$ROOT/etc/debusine/server/local.py" <<EOF
# Written by test/debusine-server/sandbox.sh: a test server on 127.0.0.1:$HTTP_PORT.
from .defaults import CHANNEL_LAYERS
from .selected import *  # noqa: F401,F403

DEBUSINE_FQDN = "127.0.0.1:$HTTP_PORT"
DEBUSINE_URL_SCHEME = "http"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
CHANNEL_LAYERS = {
    **CHANNEL_LAYERS,
    "default": {
        **CHANNEL_LAYERS["default"],
        "CONFIG": {"hosts": ["redis://127.0.0.1:$REDIS_PORT"]},
    },
}
CELERY_BROKER_URL = "redis://127.0.0.1:$REDIS_PORT/0"
PROMETHEUS_REDIS_URL = "redis://127.0.0.1:$REDIS_PORT/1"
LIVE_LOG_REDIS_URL = "redis://127.0.0.1:$REDIS_PORT/2"
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
EOF
  if [[ $FLAVOUR == current ]]; then
    # The archive host: the same server, reached as localhost (the API is 127.0.0.1), over
    # HTTP and over TLS. Debusine picks its archive views by the Host header, port included.
    cat >>"$ROOT/etc/debusine/server/local.py" <<EOF
DEBUSINE_DEBIAN_ARCHIVE_FQDN = ["localhost:$HTTP_PORT", "localhost:$TLS_PORT"]
DEBUSINE_DEBIAN_ARCHIVE_URL_SCHEME = "http"
EOF
    make_tls_certificate
  fi
  mkdir -p "$ROOT/etc/debusine/worker"
  cat >"$ROOT/etc/debusine/worker/config.ini" <<EOF
[General]
api-url = http://127.0.0.1:$HTTP_PORT/api
log-level = INFO
EOF
  chown -R debusine-worker:debusine-worker "$ROOT/etc/debusine/worker" 2>/dev/null \
    || in_root chown -R debusine-worker:debusine-worker /etc/debusine/worker
}

# ---------------------------------------------------------------------------------------
# Start

wait_for() {
  local what=$1 seconds=$2
  shift 2
  local i
  for i in $(seq 1 $((seconds * 5))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  die "$what did not come up within ${seconds}s; logs are in $LOGS"
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

http_ok() { curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:$HTTP_PORT/api/1.0/whoami/"; }

redis_ok() { in_root redis-cli -p "$REDIS_PORT" ping | grep -q PONG; }

start_services() {
  mount_all
  mkdir -p "$RUN" "$LOGS"
  if ! is_ours redis; then
    port_free "$REDIS_PORT" || die "port $REDIS_PORT (redis) is taken by another program"
  fi
  if ! is_ours web; then
    port_free "$HTTP_PORT" || die "port $HTTP_PORT (http) is taken by another program"
  fi

  in_root install -d -o postgres -g postgres -m 2775 /run/postgresql
  if ! in_root pg_ctlcluster "$PG_VERSION" main status >/dev/null 2>&1; then
    in_root pg_ctlcluster "$PG_VERSION" main start >>"$LOGS/postgresql.log" 2>&1 \
      || die "PostgreSQL did not start; see $LOGS/postgresql.log"
  fi
  touch "$RUN/postgresql.started"
  start redis redis redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' \
    --appendonly no --dir /var/lib/redis --daemonize no
  wait_for redis 20 redis_ok

  if [[ ! -f $ROOT/var/lib/debusine/server/.sandbox-db ]]; then
    in_root su postgres -s /bin/sh -c \
      "psql -q -c \"CREATE ROLE \\\"debusine-server\\\" LOGIN\" 2>/dev/null; createdb -O debusine-server debusine 2>/dev/null; true"
    touch "$ROOT/var/lib/debusine/server/.sandbox-db"
  fi
  log "migrating the database"
  admin migrate --no-input >>"$LOGS/migrate.log" 2>&1 \
    || die "debusine-admin migrate failed; see $LOGS/migrate.log"
  # The planner's statistics: the tests add workspaces, groups and roles a few at a time,
  # below autovacuum's threshold for such small tables, and a plan made for a workspace
  # table of one row makes every permission-filtered list scan all work requests twice.
  in_root su postgres -s /bin/sh -c "psql -q -d debusine -c ANALYZE" >>"$LOGS/migrate.log" 2>&1 \
    || die "ANALYZE of the database failed; see $LOGS/migrate.log"

  case $FLAVOUR in
    current)
      start web debusine-server env DEBUSINE_WORKER_MANAGER=1 gunicorn \
        --config=/etc/debusine/server/gunicorn.conf.py --bind "127.0.0.1:$HTTP_PORT" \
        --workers 3 --max-requests 0 debusine.project.asgi:application
      ;;
    earlier)
      start web debusine-server daphne -b 127.0.0.1 -p "$HTTP_PORT" \
        debusine.project.asgi:application
      ;;
  esac
  # The node names begin as the packaged units' do ("celery@", "scheduler@"): that is how
  # the server knows its own Celery worker when it starts (connect_worker in
  # debusine/project/celery.py), and without that Worker no server task (such as
  # package_upload's packageupload) is ever assigned.
  start celery debusine-server python3 -m celery -A debusine.project worker -l INFO \
    -n "celery@sandbox-$FLAVOUR" -X provisioner,scheduler --concurrency 2
  start scheduler debusine-server python3 -m celery -A debusine.project worker -l INFO \
    -n "scheduler@sandbox-$FLAVOUR" -Q scheduler --concurrency 1
  # The periodic tasks (debusine-server-periodic-tasks.service), among them the scheduler's
  # fallback run every 15 s: without it a work request created while the worker restarts
  # waits until the next event.
  start beat debusine-server python3 -m celery -A debusine.project beat -l INFO \
    --schedule /var/lib/debusine/server/celerybeat-schedule
  wait_for "the Debusine server" 90 http_ok
  if [[ $FLAVOUR == current ]]; then
    start_upload_queue
    start_tls_web
    configure_signing
  fi
}

# ---------------------------------------------------------------------------------------
# Seed data (once per chroot), then the JSON file the tests read

seed() {
  local seedfile=$ROOT/var/lib/debusine-sandbox/seed.env
  if [[ ! -f $seedfile ]]; then
    log "seeding users, workspaces and tokens"
    mkdir -p "$(dirname "$seedfile")"
    local password
    password=$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 20)
    "seed_$FLAVOUR" "$password" >"$seedfile.new"
    mv "$seedfile.new" "$seedfile"
  fi
  # shellcheck disable=SC1090
  source "$seedfile"
  start_worker
  write_state
}

last_line() { tail -n 1 | tr -d '[:space:]'; }

set_password() {
  admin shell -c "
from django.contrib.auth import get_user_model
u = get_user_model().objects.get(username='$1')
u.set_password('$2')
u.save()
" >/dev/null
}

# Both releases know groups and workspace roles; 0.11 names some commands differently.
seed_users() {
  local password=$1 create_user=$2
  # Tolerate users left by an earlier attempt that stopped half-way.
  admin $create_user alice alice@example.org >/dev/null 2>&1 || true
  admin $create_user bob bob@example.org >/dev/null 2>&1 || true
  set_password alice "$password"
  admin group create debusine/Owners >/dev/null
  admin group members debusine/Owners --add alice >/dev/null
  admin workspace define debusine/Playground Owners >/dev/null
  admin workspace grant_role debusine/System owner Owners >/dev/null
  echo "OWNER_TOKEN=$(admin create_token alice --comment 'debusine-desktop tests' | last_line)"
  echo "NOROLE_TOKEN=$(admin create_token bob --comment 'debusine-desktop tests' | last_line)"
  echo "OWNER_PASSWORD=$password"
}

seed_current() {
  seed_users "$1" "user create"
  echo "WORKER_ACTIVATION=$(admin worker create "sandbox-worker-$FLAVOUR" | last_line)"
  # A second worker that takes only noop tasks, so that the tests' noop work requests do not
  # wait behind a build that takes minutes.
  echo "NOOP_WORKER_ACTIVATION=$(admin worker create "sandbox-noop-worker-$FLAVOUR" | last_line)"
  printf 'tasks_allowlist:\n- noop\n' >"$ROOT/var/lib/debusine-sandbox/noop-worker.yaml"
  admin worker edit_metadata "sandbox-noop-worker-$FLAVOUR" \
    --set /var/lib/debusine-sandbox/noop-worker.yaml >/dev/null
}

seed_earlier() {
  seed_users "$1" create_user
  # 0.11 has no activation tokens: its worker registers itself and is enabled afterwards.
  echo "WORKER_ACTIVATION="
}

start_worker() {
  local dir=$ROOT/etc/debusine/worker
  if [[ ! -f $dir/token && -n ${WORKER_ACTIVATION:-} ]]; then
    printf '%s\n' "$WORKER_ACTIVATION" >"$dir/activation-token"
    in_root chown debusine-worker:debusine-worker /etc/debusine/worker/activation-token
    chmod 600 "$dir/activation-token"
  fi
  # The worker shuts itself down when the server refuses its results (for example when a
  # test aborts the work request it runs), so it runs under a loop that restarts it.
  if [[ $FLAVOUR == current ]]; then
    # The build worker takes no noop: the scheduler counts a worker free as soon as its work
    # request is aborted, while the build itself runs on for minutes, and a test's noop
    # assigned to it then waited that long. The noop worker takes them all.
    printf 'tasks_denylist:\n- noop\n' >"$ROOT/var/lib/debusine-sandbox/worker.yaml"
    admin worker edit_metadata "sandbox-worker-$FLAVOUR" \
      --set /var/lib/debusine-sandbox/worker.yaml >/dev/null
    start_pivoted worker debusine-worker sh -c \
      'while :; do debusine-worker --log-stderr; echo "worker exited ($?); restarting"; sleep 1; done'
    start_noop_worker
  else
    # 0.11 only logs to a file it opens itself: hand it a pipe, which it may reopen.
    start worker debusine-worker sh -c \
      'while :; do debusine-worker --log-file /dev/stderr 2>&1 | cat; echo "worker exited; restarting"; sleep 1; done'
    # It can miss the work it is assigned: the watchdog restarts it then.
    install -m 0755 "$(dirname "${BASH_SOURCE[0]}")/worker-watchdog.sh" \
      "$ROOT/usr/local/sbin/ddt-worker-watchdog"
    start watchdog root /usr/local/sbin/ddt-worker-watchdog
  fi
  if [[ -z ${WORKER_ACTIVATION:-} ]]; then
    # Without an activation token the worker registers itself; enable it once it has.
    wait_for "the worker's registration" 60 worker_registered
    # The worker registers under its FQDN, as Python computes it.
    local name
    name=$(in_root python3 -c 'import socket; print(socket.getfqdn())')
    admin manage_worker enable "$name" >/dev/null
  fi
}

# The noop worker keeps its configuration and token in a home of its own (the worker reads
# $HOME/.config/debusine/worker before /etc/debusine/worker) and works in plain chroot: it
# never takes a task that needs a user namespace.
start_noop_worker() {
  local home=/var/lib/debusine-sandbox/noop-worker
  local dir=$ROOT$home/.config/debusine/worker
  mkdir -p "$dir"
  # Written on every start, as configure writes the main worker's (the port may change).
  cp "$ROOT/etc/debusine/worker/config.ini" "$dir/config.ini"
  if [[ ! -f $dir/token && ! -f $dir/activation-token ]]; then
    printf '%s\n' "$NOOP_WORKER_ACTIVATION" >"$dir/activation-token"
    chmod 600 "$dir/activation-token"
  fi
  in_root chown -R debusine-worker:debusine-worker "$home"
  start noop-worker debusine-worker env HOME="$home" sh -c \
    'while :; do debusine-worker --log-stderr; echo "worker exited ($?); restarting"; sleep 1; done'
}

worker_registered() { [[ -f $ROOT/etc/debusine/worker/token ]]; }

server_version() {
  in_root dpkg-query -W -f '${Version}' debusine-server
}

write_state() {
  local version tmp
  version=$(server_version)
  tmp=$STATE.new
  cat >"$tmp" <<EOF
{
  "flavour": "$FLAVOUR",
  "serverVersion": "$version",
  "apiUrl": "http://127.0.0.1:$HTTP_PORT/api",
  "webUrl": "http://127.0.0.1:$HTTP_PORT",
  "wsUrl": "ws://127.0.0.1:$HTTP_PORT/api/ws/1.0",
  "scope": "debusine",
  "workspaces": { "default": "System", "second": "Playground" },
  "users": {
    "owner": { "username": "alice", "email": "alice@example.org", "token": "$OWNER_TOKEN", "password": "$OWNER_PASSWORD" },
    "noRoles": { "username": "bob", "email": "bob@example.org", "token": "$NOROLE_TOKEN" }
  },
  "worker": true,
  "realWork": $(real_work_json),
  "developers": $(developers_json),
  "repositories": $(repositories_json),
  "root": "$ROOT",
  "logs": "$LOGS"
}
EOF
  chmod 600 "$tmp"
  mv "$tmp" "$STATE"
}

# ---------------------------------------------------------------------------------------

all_running() {
  local s
  for s in $(services); do is_ours "$s" || return 1; done
  [[ -f $STATE ]] && http_ok
}

up_one() {
  flavour_settings "$1"
  local t0=$SECONDS
  if [[ -f $ROOT/.sandbox-recipe && $(cat "$ROOT/.sandbox-recipe") == "$RECIPE" ]] && all_running; then
    # The file is written again: a newer checkout may describe more than the one that
    # started these services did.
    # shellcheck disable=SC1091
    source "$ROOT/var/lib/debusine-sandbox/seed.env"
    if [[ $FLAVOUR == current ]]; then
      write_developer_files
      configure_sbuild_live_log
      if [[ $(patch_worker_live_log) == patched ]]; then
        log "the worker streams every task's live log from its next start (restart the sandbox)"
      fi
    fi
    write_state
    log "already running at http://127.0.0.1:$HTTP_PORT/ ($STATE)"
    return
  fi
  timed "the chroot" build
  configure
  timed "the services" start_services
  timed "the seed data and the workers" seed
  if [[ $FLAVOUR == current ]]; then
    timed "real work's seed data" seed_real_work
    timed "the developers workspace" seed_developers
    write_developer_files
    timed "the signing worker" start_signing_worker
    seed_repository_templates
  fi
  log "ready at http://127.0.0.1:$HTTP_PORT/ in $((SECONDS - t0))s ($STATE)"
}

# timed WHAT COMMAND...: runs COMMAND and says how long it took, when it took a while.
timed() {
  local what=$1 t=$SECONDS
  shift
  "$@"
  if ((SECONDS - t >= 2)); then log "$what: $((SECONDS - t))s"; fi
}

down_one() {
  flavour_settings "$1"
  [[ -d $ROOT ]] || return 0
  stop_all
  unmount_all
  log "stopped"
}

status_one() {
  flavour_settings "$1"
  if [[ ! -d $ROOT ]]; then
    echo "$FLAVOUR: not built"
    return
  fi
  local s line="$FLAVOUR:"
  for s in $(services); do
    if is_ours "$s"; then line+=" $s=up"; else line+=" $s=down"; fi
  done
  echo "$line (http://127.0.0.1:$HTTP_PORT/)"
  if is_ours web && http_ok; then worker_tags; fi
}

flavours() {
  case ${1:-all} in
    all) echo current earlier ;;
    *) echo "$1" ;;
  esac
}

main() {
  [[ $(id -u) == 0 ]] || die "run as root: the sandbox uses debootstrap, chroot and mount"
  local cmd=${1:-}
  shift || true
  case $cmd in
    up)
      command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap"
      # Build the missing chroots side by side (mostly network and disk), then start them.
      local pids=() f t0=$SECONDS
      for f in $(flavours "${1:-all}"); do
        (flavour_settings "$f" && build) &
        pids+=($!)
      done
      for f in "${pids[@]}"; do wait "$f" || die "building a chroot failed"; done
      if ((SECONDS - t0 >= 2)); then FLAVOUR= log "chroots built in $((SECONDS - t0))s"; fi
      for f in $(flavours "${1:-all}"); do up_one "$f"; done
      ;;
    down) for f in $(flavours "${1:-all}"); do down_one "$f"; done ;;
    status) for f in $(flavours "${1:-all}"); do status_one "$f"; done ;;
    rebuild)
      [[ -n ${1:-} && ${1:-} != all ]] || die "rebuild takes one flavour"
      down_one "$1"
      rm -rf "$ROOT"
      up_one "$1"
      ;;
    *)
      sed -n '2,12p' "$0" >&2
      exit 2
      ;;
  esac
}

main "$@"
