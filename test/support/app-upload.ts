/**
 * The app's upload as the Upload screen runs it, through the service's bridge: the files
 * are staged as a drop stages them, `localArtifacts.detect` checks them and picks the kind,
 * `uploads.start` makes the job, and the run ends at `upload.finished`. What is timed is
 * what a user waits for after dropping the files. The bench times it; tests compare what it
 * leaves on the server with what dput-ng leaves.
 */
import { basename } from 'node:path';
import type { UploadJob } from '../../src/shared/contract';
import { serviceBridge, type ServiceBridge, type SignInTarget } from './service-bridge';

/** The service behind its bridge, signed in to `server`, recording the upload ends. */
export async function appService(server: SignInTarget): Promise<ServiceBridge> {
  const s = await serviceBridge({}, ['connection.state', 'upload.finished']);
  await s.signIn(server);
  return s;
}

/**
 * Drops `files` (name → path) on the app and uploads what they make; `kind` sets the kind
 * when no kind fits the files by themselves (random bench data).
 */
export async function uploadThroughApp(
  s: ServiceBridge,
  files: Record<string, string> | string[],
  options: { workspace: string; kind?: string; startWorkflow?: boolean },
): Promise<UploadJob> {
  const entries = Array.isArray(files)
    ? files.map((path) => [basename(path), path] as const)
    : Object.entries(files);
  const staged = [];
  for (const [name, path] of entries) staged.push(await s.made.files.add(path, { name }));
  const fileIds = staged.map((f) => f.id);
  let [draft] = await s.api.localArtifacts.detect({ fileIds });
  if (!draft) throw new Error('no draft was made');
  if (options.kind !== undefined && draft.kind !== options.kind) {
    draft = await s.api.localArtifacts.update({ draftId: draft.draftId, kind: options.kind });
  }
  if (!draft.ready) {
    throw new Error(`the draft is not ready: ${draft.problems.map((p) => p.message).join('; ')}`);
  }
  const job = await s.api.uploads.start({
    draftId: draft.draftId,
    workspace: options.workspace,
    startWorkflow: options.startWorkflow ?? false,
  });
  // The upload reads the draft's own links: main lets the staged files go once it starts.
  const kept = fileIds.filter((id) => s.made.files.get(id) !== undefined);
  if (kept.length > 0)
    throw new Error(`staged files not released after the start: ${kept.join(', ')}`);
  const done = await s.waitEvent('upload.finished', (j) => j.jobId === job.jobId, 600_000);
  if (done.state !== 'completed') {
    throw new Error(`the upload ended ${done.state}: ${done.error?.message ?? ''}`);
  }
  return done;
}
