# Sourced by sandbox.sh: what the current flavour runs to publish personal APT repositories
# as debusine.debian.net does. A repository is a workspace with a debian:archive and
# debian:suite collections; publishing to a suite ends with its indexes signed, and signing
# (the archive's key, made the first time, then Release.gpg and InRelease) is the work of a
# signing worker: the debusine-signing package, with a database and a service key of its
# own. That worker refuses a server it would reach over plain HTTP, so the server also
# listens with TLS, behind a certificate made here and trusted in the chroot. The archive
# itself is served by the same server on another host name (localhost, where the API is
# 127.0.0.1), over HTTP and over HTTPS; a private one's apt logins work over HTTPS only.

# From trixie-backports, like the server it signs for (it depends on its exact version).
SIGNING_PACKAGE=debusine-signing
# In the chroot: the certificate authority and the server's certificate and key.
TLS_DIR=/etc/debusine/sandbox-tls
TLS_CA=/usr/local/share/ca-certificates/debusine-sandbox-ca.crt

as_signing() {
  chroot --userspec=debusine-signing:debusine-signing "$ROOT" /usr/bin/env -i \
    PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/var/lib/debusine/signing "$@"
}

# A chroot built before the signing worker joined the sandbox gains it here (see
# ensure_packages for the other tools).
ensure_signing_package() {
  [[ $(in_root dpkg-query -W -f '${db:Status-Status}' "$SIGNING_PACKAGE" 2>/dev/null) == installed ]] \
    && return 0
  log "installing $SIGNING_PACKAGE into the chroot"
  {
    in_root apt-get update
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      -t trixie-backports "$SIGNING_PACKAGE"
    in_root apt-get clean
  } >>"$DIR/apt.log" 2>&1 || die "apt-get in the chroot failed; see $DIR/apt.log"
}

# Once per chroot: a certificate authority of the sandbox's own, trusted in the chroot (so
# the signing worker and apt there accept the server), and the server's certificate for
# 127.0.0.1 and localhost, signed by it. Tests outside the chroot trust the authority's
# file, which sandbox.json names. A leaf signed by an authority, not one self-signed
# certificate for both: Python 3.13 verifies strictly, and refuses a CA certificate used
# as a server's.
make_tls_certificate() {
  local dir=$ROOT$TLS_DIR
  [[ -f $dir/server.pem && -f $dir/server.key && -f $ROOT$TLS_CA ]] && return 0
  log "making the sandbox's TLS certificate"
  install -d -m 0755 "$dir"
  in_root openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=Debusine sandbox CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$TLS_DIR/ca.key" -out "$TLS_DIR/ca.pem" >/dev/null 2>&1 \
    || die "openssl could not make the sandbox's certificate authority"
  in_root openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" \
    -keyout "$TLS_DIR/server.key" -out "$TLS_DIR/server.csr" >/dev/null 2>&1 \
    || die "openssl could not make the server's key"
  printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=critical,CA:FALSE" \
    "keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" \
    "authorityKeyIdentifier=keyid" "subjectKeyIdentifier=hash" >"$dir/server.ext"
  in_root openssl x509 -req -in "$TLS_DIR/server.csr" -CA "$TLS_DIR/ca.pem" \
    -CAkey "$TLS_DIR/ca.key" -CAcreateserial -days 3650 -extfile "$TLS_DIR/server.ext" \
    -out "$TLS_DIR/server.pem" >/dev/null 2>&1 || die "openssl could not sign the server's certificate"
  rm -f "$dir/server.csr" "$dir/server.ext"
  # The web server runs as debusine-server and reads the key; no one else may.
  in_root chown root:debusine-server "$TLS_DIR/server.key" "$TLS_DIR/ca.key"
  chmod 0640 "$dir/server.key" "$dir/ca.key"
  install -d "$(dirname "$ROOT$TLS_CA")"
  cp "$dir/ca.pem" "$ROOT$TLS_CA"
  in_root update-ca-certificates >/dev/null 2>&1 || die "update-ca-certificates failed in the chroot"
}

tls_ok() {
  curl -fsS -o /dev/null --max-time 5 --cacert "$ROOT$TLS_DIR/ca.pem" \
    "https://127.0.0.1:$TLS_PORT/api/1.0/whoami/"
}

# The same server over TLS, on a port of its own (what the signing worker talks to).
start_tls_web() {
  if ! is_ours web-tls; then
    port_free "$TLS_PORT" || die "port $TLS_PORT (https) is taken by another program"
  fi
  start web-tls debusine-server env DEBUSINE_WORKER_MANAGER=1 gunicorn \
    --config=/etc/debusine/server/gunicorn.conf.py --bind "127.0.0.1:$TLS_PORT" \
    --certfile "$TLS_DIR/server.pem" --keyfile "$TLS_DIR/server.key" \
    --workers 2 --max-requests 0 debusine.project.asgi:application
  wait_for "the Debusine server over TLS" 90 tls_ok
}

# The signing service's database, service key and configuration. Its settings read every
# *.key file beside them when they load, and refuse one that others may read, so the key is
# made before anything else runs the service's commands.
configure_signing() {
  local marker=$ROOT/var/lib/debusine/signing/.sandbox-db
  if [[ ! -f $marker ]]; then
    in_root su postgres -s /bin/sh -c \
      "psql -q -c \"CREATE ROLE \\\"debusine-signing\\\" LOGIN\" 2>/dev/null; createdb -O debusine-signing debusine-signing 2>/dev/null; true"
    touch "$marker"
  fi
  if [[ ! -f $ROOT/etc/debusine/signing/0.key ]]; then
    as_signing debusine-signing generate_service_key /etc/debusine/signing/0.key \
      >>"$LOGS/signing.log" 2>&1 || die "the signing service key could not be made; see $LOGS/signing.log"
  fi
  # Its packaged logging goes to journald, which a chroot does not have.
  cat >"$ROOT/etc/debusine/signing/local.py" <<'EOF'
# Written by test/debusine-server/sandbox.sh: no journald here, so logs go to stderr.
from .selected import *  # noqa: F401,F403

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO"},
}
EOF
  as_signing debusine-signing migrate --no-input >>"$LOGS/signing-migrate.log" 2>&1 \
    || die "debusine-signing migrate failed; see $LOGS/signing-migrate.log"
  cat >"$ROOT/etc/debusine/signing/config.ini" <<EOF
[General]
api-url = https://127.0.0.1:$TLS_PORT/api
log-level = INFO
EOF
  in_root chown debusine-signing:debusine-signing /etc/debusine/signing/config.ini
  # What `debusine-signing signing_worker` runs, with its log on stderr: the command itself
  # logs to journald only.
  cat >"$ROOT/usr/local/sbin/ddt-signing-worker" <<'EOF'
#!/usr/bin/python3
# Written by test/debusine-server/sandbox.sh: debusine-signing's signing_worker, logging
# to stderr (the packaged command logs to journald, which this chroot does not run).
import asyncio
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "debusine.signing.settings")
import django

django.setup()
from debusine.tasks.models import WorkerType
from debusine.worker import Worker

asyncio.run(Worker(log_stderr=True, worker_type=WorkerType.SIGNING).main())
EOF
  chmod 0755 "$ROOT/usr/local/sbin/ddt-signing-worker"
}

# Once per chroot (the marker holds its activation token until the worker has its own).
start_signing_worker() {
  local dir=$ROOT/etc/debusine/signing seeded=$ROOT/var/lib/debusine-sandbox/signing.seeded
  if [[ ! -f $seeded ]]; then
    admin worker create --worker-type signing "sandbox-signing-$FLAVOUR" | last_line >"$seeded.new"
    mv "$seeded.new" "$seeded"
  fi
  if [[ ! -f $dir/token && ! -f $dir/activation-token ]]; then
    install -m 0600 "$seeded" "$dir/activation-token"
    in_root chown debusine-signing:debusine-signing /etc/debusine/signing/activation-token
  fi
  start signing debusine-signing sh -c \
    'while :; do /usr/local/sbin/ddt-signing-worker; echo "signing worker exited ($?); restarting"; sleep 1; done'
  wait_for "the signing worker's registration" 60 signing_registered
}

signing_registered() { [[ -f $ROOT/etc/debusine/signing/token ]]; }

# The templates a developer makes a repository with, in `developers`, where
# debusine.debian.net has them: an experiment, dropped 60 days after its last task, and a
# repository that is kept. Both make `developers-<suffix>`, owned by whoever ran it, with
# its own debian:archive. A create_child_workspace template needs the scope's owner, which
# no sandbox user is, so the ORM makes them.
seed_repository_templates() {
  local marker=$ROOT/var/lib/debusine-sandbox/repositories.seeded
  [[ -f $marker ]] && return 0
  log "seeding the repository templates"
  admin shell -c "
from debusine.db.models import WorkflowTemplate, Workspace
ws = Workspace.objects.get(scope__name='debusine', name='developers')
for name, delay in (('create-experiment', 60), ('create-repository', None)):
    WorkflowTemplate.objects.update_or_create(
        workspace=ws, name=name,
        defaults={
            'task_name': 'create_child_workspace',
            'static_parameters': {'expiration_delay': delay},
            'runtime_parameters': {'suffix': 'any', 'public': 'any'},
        },
    )
" >/dev/null || die "the repository templates could not be made"
  touch "$marker"
}

# What sandbox.json says about repositories (null for the earlier flavour).
repositories_json() {
  if [[ $FLAVOUR != current ]]; then
    printf 'null'
    return
  fi
  cat <<EOF
{
    "templates": { "experiment": "create-experiment", "kept": "create-repository" },
    "baseWorkspace": "developers",
    "archiveUrl": "http://localhost:$HTTP_PORT",
    "archiveTlsUrl": "https://localhost:$TLS_PORT",
    "tlsApiUrl": "https://127.0.0.1:$TLS_PORT/api",
    "caCertificate": "$ROOT$TLS_DIR/ca.pem",
    "signingWorker": "sandbox-signing-$FLAVOUR"
  }
EOF
}
