#!/bin/bash
# Runs inside the earlier (0.11) sandbox's chroot, as root, beside its worker.
#
# The 0.11 worker can miss work: asking for work at the moment the scheduler assigns it
# some, it gets "no work" (HTTP 204) and does not ask again, so the work request stays
# pending with the worker assigned, and everything after it queues behind. A worker that
# connects asks for work at once, so this restarts it (the loop `sandbox.sh` runs it in
# starts it again within a second) when a work request has stayed pending and assigned for
# STUCK_SECONDS. A worker told of its work starts it within a second or two, also under
# load; a task that has started is `running`, not pending.
set -u
STUCK_SECONDS=${STUCK_SECONDS:-15}
declare -A first_seen=()
while :; do
  sleep 3
  now=$(date +%s)
  pending=$(runuser -u debusine-server -- psql -d debusine -Atc \
    "select id from db_workrequest where status = 'pending' and worker_id is not null" \
    2>/dev/null) || continue
  declare -A still=()
  stuck=''
  for id in $pending; do
    still[$id]=1
    : "${first_seen[$id]:=$now}"
    if ((now - first_seen[$id] >= STUCK_SECONDS)); then stuck+=" $id"; fi
  done
  for id in "${!first_seen[@]}"; do
    [[ -n ${still[$id]:-} ]] || unset "first_seen[$id]"
  done
  unset still
  if [[ -n $stuck ]]; then
    echo "$(date -Is) work request(s)$stuck pending and assigned for ${STUCK_SECONDS} s: restarting the worker"
    # The chroots share the machine's processes: the 0.11 worker is the one started with
    # --log-file (sandbox.sh), the current sandbox's workers log with --log-stderr.
    pkill -TERM -f '^/usr/bin/python3 /usr/bin/debusine-worker --log-file' || true
    first_seen=()
    sleep 10
  fi
done
