# Sourced by sandbox.sh: what lets the current flavour's worker run real Debian tasks
# (sbuild, lintian, autopkgtest, piuparts, blhc, mmdebstrap with the `unshare` backend), and
# the seed data those tasks need.

# The worker's tools, from trixie (not backports): sbuild and mmdebstrap build in user
# namespaces (uidmap), and the worker only offers the `unshare` executor when `unshare` and
# `ip` (iproute2) exist. lintian, piuparts and blhc are installed by their tasks inside the
# build environment.
WORKER_TOOLS="sbuild mmdebstrap uidmap iproute2 autopkgtest xz-utils dpkg-dev apt-utils gpg arch-test"

# enter_root ROOT USER HOME COMMAND...: run in a private mount namespace (see
# start_pivoted); makes ROOT the process's root with pivot_root and runs COMMAND as USER.
# The kernel refuses to create a user namespace for a process whose root was set with
# chroot(2), and every task of the unshare backend needs one; pivot_root does not have
# that restriction.
enter_root() {
  local root=$1 user=$2 home=$3 d
  shift 3
  set -e
  # Recursive, so that the chroot's /proc, /run and /dev/shm come along.
  mount --rbind "$root" "$root"
  # sbuild's unshare mode mounts a tmpfs on /sys/kernel, which must exist.
  mount --rbind /sys "$root/sys"
  # A /dev of device nodes only: piuparts refuses a chroot whose /dev has other files
  # (its check for running processes), and autopkgtest needs /dev/console.
  mount -t tmpfs -o mode=755,nosuid,size=64k dev "$root/dev"
  for d in null zero full random urandom tty console; do
    touch "$root/dev/$d"
    mount --bind "/dev/$d" "$root/dev/$d"
  done
  mkdir -p "$root/dev/pts" "$root/dev/shm"
  mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$root/dev/pts"
  ln -s pts/ptmx "$root/dev/ptmx"
  mount -t tmpfs -o mode=1777,size=512m shm "$root/dev/shm"
  ln -s /proc/self/fd "$root/dev/fd"
  ln -s /proc/self/fd/0 "$root/dev/stdin"
  ln -s /proc/self/fd/1 "$root/dev/stdout"
  ln -s /proc/self/fd/2 "$root/dev/stderr"
  cd "$root"
  mkdir -p .old-root
  pivot_root . .old-root
  umount -l /.old-root
  rmdir /.old-root
  cd /
  exec /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME="$home" \
    setpriv --reuid="$user" --regid="$user" --init-groups -- "$@"
}

# start_pivoted NAME USER COMMAND...: like `start`, with the process's root made by
# pivot_root in a mount namespace of its own instead of chroot. The recorded pid is the
# one that ends as COMMAND (setsid, unshare, bash and env each exec the next), so `stop`
# signals the same process group as for the other services.
start_pivoted() {
  local name=$1 user=$2 home
  shift 2
  if is_ours "$name"; then return; fi
  mkdir -p "$RUN" "$LOGS"
  home=$(home_of "$user")
  setsid unshare --mount --propagation private -- \
    bash -c "$(declare -f enter_root); enter_root \"\$@\"" enter_root "$ROOT" "$user" "$home" "$@" \
    >>"$LOGS/$name.log" 2>&1 </dev/null &
  echo $! >"$RUN/$name.pid"
  # Until it has pivoted, its root is still the host's, and is_ours would call it a stranger.
  wait_for "$name's own root" 20 is_ours "$name"
}

# ---------------------------------------------------------------------------------------
# Seed data for real work, in the default workspace (current flavour only)

# api METHOD PATH [JSON]: the sandbox's API as alice; prints the answer, fails on an HTTP error.
api() {
  local method=$1 path=$2 body=${3:-}
  local args=(-sS --fail-with-body --max-time 60 -X "$method" -H "Token: $OWNER_TOKEN"
    -H 'Accept: application/json')
  if [[ -n $body ]]; then args+=(-H 'Content-Type: application/json' --data-binary "$body"); fi
  curl "${args[@]}" "http://127.0.0.1:$HTTP_PORT/api/1.0/$path"
}

json_field() { in_root python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }

# The templates the tests and the README use: static parameters that worked on 0.16, and
# the runtime parameter that takes the artifact to work on.
template_json() {
  local name=$1 task=$2 static=$3 runtime=$4
  printf '{"name": "%s", "task_name": "%s", "static_parameters": %s, "runtime_parameters": %s, "priority": 0}' \
    "$name" "$task" "$static" "$runtime"
}

# What sandbox.json says about real work: the templates seed_real_work makes, or null for
# the earlier flavour, whose worker runs noop only.
real_work_json() {
  if [[ $FLAVOUR == current ]]; then
    printf '{ "sbuildTemplate": "sbuild-trixie", "pipelineTemplate": "debian-pipeline-trixie" }'
  else
    printf 'null'
  fi
}

seed_real_work() {
  local t0=$SECONDS marker=$ROOT/var/lib/debusine-sandbox/real-work.seeded
  if [[ ! -f $marker ]]; then
    log "seeding the environments collection and the workflow templates"
    admin create_collection debian debian:environments --workspace debusine/System \
      --data /dev/null >/dev/null
    local env_targets
    env_targets=$(printf '{"vendor": "debian", "targets": [{"codenames": "trixie", "architectures": ["amd64"], "backends": ["unshare"], "mmdebstrap_template": {"bootstrap_options": {"variant": "buildd"}, "bootstrap_repositories": [{"mirror": "%s", "components": ["main"]}]}}]}' "$MIRROR")
    api POST workflow-template/System/ "$(template_json update-environments-trixie \
      update_environments "$env_targets" '{}')" >/dev/null
    api POST workflow-template/System/ "$(template_json sbuild-trixie sbuild \
      '{"target_distribution": "debian:trixie", "architectures": ["all", "amd64"], "backend": "unshare"}' \
      '{"input": "any"}')" >/dev/null
    api POST workflow-template/System/ "$(template_json debian-pipeline-trixie debian_pipeline \
      '{"vendor": "debian", "codename": "trixie", "architectures": ["all", "amd64"], "sbuild_backend": "unshare", "lintian_backend": "unshare", "autopkgtest_backend": "unshare", "piuparts_backend": "unshare", "enable_autopkgtest": true, "enable_lintian": true, "enable_piuparts": true, "enable_blhc": true, "enable_upload": false}' \
      '{"source_artifact": "any"}')" >/dev/null
    touch "$marker"
    log "collection and templates seeded in $((SECONDS - t0))s"
  fi
  ensure_environment
}

# The trixie amd64 build environment: made once per chroot by the update_environments
# workflow (the slow part, about 3 minutes), then kept; `rebuild current` makes it again.
ensure_environment() {
  local done_file=$ROOT/var/lib/debusine-sandbox/environment.done t0=$SECONDS id status result
  [[ -f $done_file ]] && return
  id=$(cat "$ROOT/var/lib/debusine-sandbox/environment.workflow" 2>/dev/null || true)
  if [[ -z $id ]]; then
    log "making the trixie amd64 build environment (update_environments, a few minutes)"
    id=$(api POST workflow/ '{"template_name": "update-environments-trixie", "workspace": "System", "task_data": {}}' | json_field id)
    echo "$id" >"$ROOT/var/lib/debusine-sandbox/environment.workflow"
  else
    log "waiting for the build environment (workflow $id)"
  fi
  for _ in $(seq 1 360); do
    status=$(api GET "work-request/$id/" | in_root python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["status"], d["result"])')
    result=${status#* }
    status=${status%% *}
    if [[ $status == completed ]]; then break; fi
    sleep 5
  done
  if [[ $status != completed || $result != success ]]; then
    rm -f "$ROOT/var/lib/debusine-sandbox/environment.workflow"
    die "the build environment was not made (workflow $id: $status/$result); see $LOGS/worker.log"
  fi
  touch "$done_file"
  log "build environment made in $((SECONDS - t0))s (workflow $id)"
}

# What the workers report: executors and capabilities, as the scheduler sees them.
worker_tags() {
  admin shell -c "
from debusine.db.models import Worker
for w in Worker.objects.filter(worker_type='external').order_by('name'):
    tags = sorted(t for t in w.metadata().get('provided_tags', []) if t.startswith(('worker:executor:', 'worker:cap:')))
    allow = w.metadata().get('tasks_allowlist')
    print(f'  {w.name}: ' + (' '.join(tags) or 'no executors or capabilities') + (f' (only: {\", \".join(allow)})' if allow else ''))
" 2>/dev/null | grep '^  ' || echo "  (the server did not answer)"
}
