# Sourced by sandbox.sh: the current flavour's `developers` workspace, set up for the
# upload journey of debusine.debian.net (dput-ng uploads a .changes, a `debian_pipeline`
# workflow builds and tests it, waits for the uploader's signature, then uploads to a queue):
# the workspace and its two templates, an FTP upload queue, and the dput-ng profile.

# dput-ng, to compare the app's uploads with; devscripts for debsign, which
# `debusine work-request sign` runs; pyftpdlib for the upload queue.
DEVELOPER_TOOLS="dput-ng devscripts python3-pyftpdlib"

# The dput-ng host name (the profile's file name) the sandbox writes.
DPUT_HOST=debusine-sandbox
# In the chroot: the queue's FTP root (files land in incoming/), and the user it runs as.
QUEUE_ROOT=/var/lib/debusine-sandbox/upload-queue
QUEUE_USER=upload-queue

upload_target() { printf 'ftp://127.0.0.1:%s/incoming/' "$QUEUE_PORT"; }

# ensure_packages: installs the packages of EXTRA_PACKAGES that an existing chroot lacks.
# A chroot built before a package joined the list gains it here, without a RECIPE bump
# (which would rebuild the chroot and the build environment).
ensure_packages() {
  local missing=() p
  for p in $EXTRA_PACKAGES; do
    # dpkg -s's status, without a pipe: grep -q would leave dpkg writing to a closed pipe,
    # which pipefail takes for a failure.
    [[ $(in_root dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null) == installed ]] \
      || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  log "installing ${missing[*]} into the chroot"
  {
    in_root apt-get update
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      "${missing[@]}"
    in_root apt-get clean
  } >>"$DIR/apt.log" 2>&1 || die "apt-get in the chroot failed; see $DIR/apt.log"
}

# ---------------------------------------------------------------------------------------
# The upload queue (a service of the current flavour, see SERVICES)

queue_ok() { ! port_free "$QUEUE_PORT"; }

start_upload_queue() {
  if ! in_root getent passwd "$QUEUE_USER" >/dev/null; then
    in_root useradd --system --user-group --home-dir "$QUEUE_ROOT" --no-create-home \
      --shell /usr/sbin/nologin "$QUEUE_USER"
  fi
  in_root install -d -o "$QUEUE_USER" -g "$QUEUE_USER" "$QUEUE_ROOT" "$QUEUE_ROOT/incoming"
  # Copied on every start, so that a changed script takes effect with the next `up`.
  install -D -m 755 "$(dirname "${BASH_SOURCE[0]}")/upload-queue.py" \
    "$ROOT/usr/local/lib/debusine-sandbox/upload-queue.py"
  if ! is_ours upload-queue; then
    port_free "$QUEUE_PORT" || die "port $QUEUE_PORT (upload queue) is taken by another program"
  fi
  start upload-queue "$QUEUE_USER" python3 /usr/local/lib/debusine-sandbox/upload-queue.py \
    "$QUEUE_PORT" "$QUEUE_ROOT"
  wait_for "the upload queue" 20 queue_ok
}

# ---------------------------------------------------------------------------------------
# Seed data: the workspace and its templates

# The static parameters of both templates: those of debian-pipeline-trixie (see
# seed_real_work), and the upload. Like Debusine's own model of debusine.debian.net's
# upload-to-unstable (DebianWorkspace in debusine/db/playground/scenarios.py) it uploads
# the source alone, unmerged. The sandbox differs in three ways:
# - codename trixie: its only build environment is trixie's (sbuild, lintian, piuparts and
#   autopkgtest look theirs up by codename); the uploaded .changes keeps its Distribution.
# - qa_failure_policy "fail": the default ("ignore") makes the upload depend on nothing,
#   so that a package whose build fails would still wait for a signature and reach the
#   queue once signed; "fail" makes it wait for the QA sub-workflow (hence the builds).
# - upload_target_distribution: used only when the workflow starts from a bare
#   debian:source-package (it then makes the .changes itself), so that such an upload
#   goes where the template's name says rather than where the changelog says.
developers_static() {
  local distribution=$1
  printf '{"vendor": "debian", "codename": "trixie", "architectures": ["all", "amd64"], "sbuild_backend": "unshare", "lintian_backend": "unshare", "autopkgtest_backend": "unshare", "piuparts_backend": "unshare", "enable_autopkgtest": true, "enable_lintian": true, "enable_piuparts": true, "enable_blhc": true, "qa_failure_policy": "fail", "enable_upload": true, "upload_require_signature": true, "upload_include_binaries": false, "upload_merge_uploads": false, "upload_target_distribution": "%s", "upload_target": "%s"}' \
    "$distribution" "$(upload_target)"
}

# ensure_template WORKSPACE NAME TASK STATIC RUNTIME: creates the template, or brings an
# existing one's parameters up to date (its upload target follows the queue's port).
ensure_template() {
  local workspace=$1 name=$2 task=$3 static=$4 runtime=$5
  if api GET "workflow-template/$workspace/$name/" >/dev/null 2>&1; then
    api PATCH "workflow-template/$workspace/$name/" \
      "$(printf '{"static_parameters": %s, "runtime_parameters": %s}' "$static" "$runtime")" >/dev/null
  else
    api POST "workflow-template/$workspace/" "$(template_json "$name" "$task" "$static" "$runtime")" >/dev/null
  fi
}

# Once per chroot, and again when the queue's port changes: the marker holds the upload
# target the templates were given. Each step may run again, so an attempt that stopped
# half-way is finished by the next `up`.
seed_developers() {
  local marker=$ROOT/var/lib/debusine-sandbox/developers.seeded
  [[ -f $marker && $(cat "$marker") == "$(upload_target)" ]] && return
  log "seeding the developers workspace and its upload templates"
  # Public, as System is (Playground is the sandbox's private workspace).
  admin workspace define debusine/developers Owners --public >/dev/null
  # The build environments live in System's debian@debian:environments.
  api POST workspace/developers/inheritance/ '{"chain": [{"workspace": "System"}]}' >/dev/null
  ensure_template developers upload-to-unstable debian_pipeline "$(developers_static unstable)" \
    '{"source_artifact": "any"}'
  ensure_template developers upload-to-experimental debian_pipeline \
    "$(developers_static experimental)" '{"source_artifact": "any"}'
  upload_target >"$marker"
}

# ---------------------------------------------------------------------------------------
# dput-ng and the Debusine client, written on every `up` (the ports may change)

# The profile, in the shape of debusine.debian.net's (debusine-client ships it in
# /usr/share/dput-ng/profiles/). dput-ng's debusine uploader finds the client's server
# section by `fqdn` and `debusine_scope`: a section whose api-url's host name is the fqdn
# (the port is not compared, see debusine/client/config.py), with that scope.
dput_profile() {
  cat <<'EOF'
{
  "allow_unsigned_uploads": true,
  "debusine_scope": "debusine",
  "debusine_workflows_by_distribution": {
    "sid": "upload-to-unstable",
    "*": "upload-to-{distribution}"
  },
  "debusine_workflow_data": {
    "source_artifact": "@UPLOAD@"
  },
  "debusine_workspace": "developers",
  "fqdn": "127.0.0.1",
  "incoming": "/",
  "meta": "debusine",
  "method": "debusine"
}
EOF
}

# alice in the chroot: a user whose Debusine client (and so dput-ng) signs in as alice.
write_developer_files() {
  install -d "$DIR/dput.d/profiles" "$ROOT/etc/dput.d/profiles"
  dput_profile >"$DIR/dput.d/profiles/$DPUT_HOST.json"
  dput_profile >"$ROOT/etc/dput.d/profiles/$DPUT_HOST.json"
  if ! in_root getent passwd alice >/dev/null; then
    in_root useradd --create-home --shell /bin/bash alice
  fi
  local config=$ROOT/home/alice/.config/debusine/client
  install -d "$config"
  cat >"$config/config.ini.new" <<EOF
[General]
default-server = $DPUT_HOST

[server:$DPUT_HOST]
api-url = http://127.0.0.1:$HTTP_PORT/api
scope = debusine
token = $OWNER_TOKEN
default-workspace = developers
EOF
  chmod 600 "$config/config.ini.new"
  mv "$config/config.ini.new" "$config/config.ini"
  in_root chown -R alice:alice /home/alice/.config
}

# What sandbox.json says about the developers workspace (null for the earlier flavour).
developers_json() {
  if [[ $FLAVOUR != current ]]; then
    printf 'null'
    return
  fi
  cat <<EOF
{
    "workspace": "developers",
    "templates": { "unstable": "upload-to-unstable", "experimental": "upload-to-experimental" },
    "uploadQueue": { "url": "$(upload_target)", "dir": "$ROOT$QUEUE_ROOT/incoming" },
    "dputProfiles": "$DIR/dput.d",
    "dputHost": "$DPUT_HOST"
  }
EOF
}
