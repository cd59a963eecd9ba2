/**
 * Waiting steps for tests, made in the sandbox's database. A real server only creates
 * `externaldebsign` and `confirm` waits, and manual-unblock steps, inside workflows whose
 * other steps need build environments the sandbox lacks; the endpoints that act on them are
 * then exercised for real. The rows are written through Debusine's own ORM
 * (`debusine-admin shell`), as the server's workflow code would.
 */
import type { DebusineClient } from '../../src/main/api/client';
import { createUpload, uploadArtifact, type UploadResult } from '../../src/main/artifacts';
import { debianFixtures } from './debian-fixtures';
import { debusineAdminShell } from './debusine-admin';
import type { TestServer } from './sandbox';

async function shell(server: TestServer, script: string): Promise<string> {
  const root = server.root;
  if (!server.sandbox || !root) throw new Error('waiting steps can only be seeded in a sandbox');
  return debusineAdminShell(root, script);
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

/** Uploads the fixtures' upload (debian-fixtures.ts), unsigned, to the default workspace. */
export async function uploadUnsignedFixture(
  client: DebusineClient,
  server: TestServer,
): Promise<UploadResult> {
  const changesFile = debianFixtures().changes;
  return uploadArtifact(client, await createUpload({ changesFile }), {
    workspace: server.workspaces.default,
  });
}

/**
 * The fixtures' upload, unsigned (uploadUnsignedFixture), and an externaldebsign step that
 * waits for its signature; the step's id, and the upload.
 */
export async function seedSigningStep(
  client: DebusineClient,
  server: TestServer,
): Promise<{ id: number; unsigned: UploadResult }> {
  const unsigned = await uploadUnsignedFixture(client, server);
  const id = await seedWaitingStep(server, {
    kind: 'externaldebsign',
    unsignedArtifactId: unsigned.id,
  });
  return { id, unsigned };
}

export interface SigningWorkRequest {
  workRequestId: number;
  /** The work request's own token, as the server issues it to the worker that runs it. */
  token: string;
}

/**
 * A running Signing work request assigned to a signing worker, with the work-request token
 * the server issues for it: what a signing worker holds while it works. The sandbox has no
 * signing worker (it needs an HSM or a signing key set-up), so the worker row is made here;
 * the server's endpoints for workers are then driven for real with that token.
 */
export async function seedSigningWorkRequest(
  server: TestServer,
  /** A `debsign` task signing this upload artifact (its input), or a signing noop. */
  debsign?: { unsignedArtifactId: number; fingerprint: string },
): Promise<SigningWorkRequest> {
  const task = debsign
    ? `task_name="debsign", task_data={"unsigned": ${String(debsign.unsignedArtifactId)}, "key": ${JSON.stringify(debsign.fingerprint)}}, dynamic_task_data={"unsigned_id": ${String(debsign.unsignedArtifactId)}}`
    : `task_name="noop", task_data={}`;
  const out = await shell(
    server,
    `
from django.db import transaction
from django.utils import timezone
from django.contrib.auth import get_user_model
from debusine.db.models import Token, Worker, WorkRequest, Workspace
from debusine.tasks.models import WorkerType
worker = Worker.objects.filter(name="ddt-signing-worker").first()
if worker is None:
    # The database checks at commit that a worker token belongs to a worker: one transaction.
    with transaction.atomic():
        worker_token = Token.objects.create(token_type=Token.Types.WORKER, enabled=True)
        worker = Worker.objects.create_with_fqdn("ddt-signing-worker", token=worker_token, worker_type=WorkerType.SIGNING)
ws = Workspace.objects.get(name=${JSON.stringify(server.workspaces.default)}, scope__name=${JSON.stringify(server.scope)})
user = get_user_model().objects.get(username=${JSON.stringify(server.users.owner.username)})
wr = WorkRequest.objects.create(workspace=ws, created_by=user, task_type="Signing", ${task}, status="running", started_at=timezone.now(), worker=worker)
token = Token.objects.create_work_request_token(wr)
print(wr.id, token.key)
`,
  );
  const [id, token] = out.trim().split('\n').pop()?.split(' ') ?? [];
  if (!id || !token) throw new Error(`seeding a signing work request failed:\n${out}`);
  return { workRequestId: Number(id), token };
}

/**
 * A noop work request created by another user (the sandbox's users without roles cannot
 * create work requests through the API), for "mine" and creator names: completed already,
 * or pending, for the scheduler to give to the worker (its completion is then announced).
 */
export async function seedWorkRequestBy(
  server: TestServer,
  username: string,
  state: 'completed' | 'pending' = 'completed',
): Promise<number> {
  const fields =
    state === 'completed'
      ? 'status="completed", result="success", started_at=now, completed_at=now'
      : 'status="pending"';
  const out = await shell(
    server,
    `
from django.utils import timezone
from django.contrib.auth import get_user_model
from debusine.db.models import WorkRequest, Workspace
now = timezone.now()
ws = Workspace.objects.get(name=${JSON.stringify(server.workspaces.default)}, scope__name=${JSON.stringify(server.scope)})
user = get_user_model().objects.get(username=${JSON.stringify(username)})
wr = WorkRequest.objects.create(workspace=ws, created_by=user, task_type="Worker", task_name="noop", task_data={}, ${fields})
print(wr.id)
`,
  );
  const id = Number(out.trim().split('\n').pop());
  if (!Number.isInteger(id))
    throw new Error(`seeding a work request by ${username} failed:\n${out}`);
  return id;
}
