/**
 * Waiting steps for tests, made in the sandbox's database. A real server only creates
 * `externaldebsign` and `confirm` waits, and manual-unblock steps, inside workflows whose
 * other steps need build environments the sandbox lacks; the endpoints that act on them are
 * then exercised for real. The rows are written through Debusine's own ORM
 * (`debusine-admin shell`), as the server's workflow code would.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestServer } from './sandbox';

const run = promisify(execFile);

// Asynchronous on purpose: a blocked event loop would keep the HTTP pool from noticing that
// the server closed an idle connection, and the next request would go out on a dead socket.
async function shell(server: TestServer, script: string): Promise<string> {
  const root = server.root;
  if (!server.sandbox || !root) throw new Error('waiting steps can only be seeded in a sandbox');
  const { stdout } = await run(
    'chroot',
    [
      '--userspec=debusine-server:debusine-server',
      root,
      '/usr/bin/env',
      '-i',
      'HOME=/var/lib/debusine/server',
      'LANG=C.UTF-8',
      'PATH=/usr/bin:/bin',
      'debusine-admin',
      'shell',
      '-c',
      script,
    ],
    { encoding: 'utf8' },
  );
  return stdout;
}

export type WaitingStep =
  | { kind: 'externaldebsign'; unsignedArtifactId: number }
  | { kind: 'confirm' }
  | { kind: 'manual-unblock' };

/** Creates a waiting step owned by the sandbox's owner; returns its work request id. */
export async function seedWaitingStep(server: TestServer, step: WaitingStep): Promise<number> {
  const fields =
    step.kind === 'externaldebsign'
      ? `task_type="Wait", task_name="externaldebsign", task_data={"unsigned": ${String(step.unsignedArtifactId)}}, status="running", started_at=now`
      : step.kind === 'confirm'
        ? `task_type="Wait", task_name="confirm", task_data={}, status="running", started_at=now`
        : // Manual unblocking only applies to steps of a workflow.
          `task_type="Worker", task_name="noop", task_data={}, status="blocked", unblock_strategy="manual", parent=root, workflow_root=root`;
  const out = await shell(
    server,
    `
from django.utils import timezone
from django.contrib.auth import get_user_model
from debusine.db.models import WorkRequest, Workspace
now = timezone.now()
ws = Workspace.objects.get(name=${JSON.stringify(server.workspaces.default)}, scope__name=${JSON.stringify(server.scope)})
user = get_user_model().objects.get(username=${JSON.stringify(server.users.owner.username)})
root = None
if ${step.kind === 'manual-unblock' ? 'True' : 'False'}:
    root = WorkRequest.objects.create(workspace=ws, created_by=user, task_type="Workflow", task_name="noop", task_data={}, status="running", started_at=now)
wr = WorkRequest.objects.create(workspace=ws, created_by=user, ${fields})
print(wr.id)
`,
  );
  const id = Number(out.trim().split('\n').pop());
  if (!Number.isInteger(id)) throw new Error(`seeding a ${step.kind} step failed:\n${out}`);
  return id;
}
