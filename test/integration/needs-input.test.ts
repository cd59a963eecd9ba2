/**
 * A real step that waits for the user, on the current sandbox, through the app's own
 * service: debian_pipeline with `enable_confirmation` (its QA steps turned off) makes a
 * `confirm` Wait step that depends on nothing, so it starts waiting as soon as the server
 * has populated the workflow, while the build runs. The app started the workflow, so it
 * watches it; one desktop notification must say that it waits for a confirmation, once,
 * and a click on it must open the step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkRequestResponse } from '../../src/shared/contract';
import { missingDebianTools } from '../support/debian-fixtures';
import { realPackages } from '../support/real-packages';
import { hasServer, testServer } from '../support/sandbox';
import { serviceBridge, type ServiceBridge } from '../support/service-bridge';

const canRun =
  hasServer('current') &&
  testServer('current').realWork !== null &&
  missingDebianTools() === undefined;

/**
 * The check runs a few seconds after the start (NEEDS_INPUT_AFTER_START_MS); a server that
 * populates slowly is caught at the build's completion, within the build's time.
 */
const NOTIFIED_MS = 15 * 60_000;

const sleep = (ms: number) =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

describe.runIf(canRun)('a real confirm step of a watched workflow', () => {
  const server = testServer('current');
  const workspace = server.workspaces.default;
  const template = `needs-input-${String(Date.now())}`;
  let s: ServiceBridge;
  let root: WorkRequestResponse | undefined;

  beforeAll(async () => {
    s = await serviceBridge({}, [
      'connection.state',
      'upload.finished',
      'notification.shown',
      'app.navigate',
      'workRequest.completed',
    ]);
    await s.signIn(server);
  }, 120_000);

  afterAll(async () => {
    // Nothing of ours stays queued or waiting for the next tests, whatever happened here.
    if (root) {
      const now = await s.api.workRequests.get({ id: root.id });
      if (now.status !== 'completed' && now.status !== 'aborted') {
        await s.api.workRequests.abort({ id: root.id });
      }
    }
    await s.api.workflowTemplates.delete({ workspace, template }).catch(() => undefined);
    await s.close();
  }, 120_000);

  it(
    'notifies "waits for your confirmation" once, and a click opens the step',
    { timeout: NOTIFIED_MS + 5 * 60_000 },
    async () => {
      const { good } = realPackages();
      const staged = [];
      for (const path of [good.dsc, good.tarball]) staged.push(await s.made.files.add(path));
      const [draft] = await s.api.localArtifacts.detect({ fileIds: staged.map((f) => f.id) });
      const job = await s.api.uploads.start({ draftId: draft?.draftId ?? '', workspace });
      const uploaded = await s.waitEvent('upload.finished', (j) => j.jobId === job.jobId, 120_000);
      expect(uploaded.state).toBe('completed');

      await s.api.workflowTemplates.create({
        workspace,
        template: {
          name: template,
          task_name: 'debian_pipeline',
          static_parameters: {
            vendor: 'debian',
            codename: 'trixie',
            architectures: ['all', 'amd64'],
            sbuild_backend: 'unshare',
            enable_autopkgtest: false,
            enable_lintian: false,
            enable_piuparts: false,
            enable_blhc: false,
            enable_upload: false,
            enable_confirmation: true,
          },
          runtime_parameters: { source_artifact: 'any' },
        },
      });
      root = await s.api.workflows.create({
        template_name: template,
        workspace,
        task_data: { source_artifact: uploaded.artifactId ?? 0 },
      });
      const rootId = root.id;
      // Started from the app: watched.
      expect((await s.api.watch.list()).map((w) => w.workRequestId)).toContain(rootId);

      const title = `Workflow #${String(rootId)} waits for your confirmation`;
      const shown = await s.made.notifier.waitFor((n) => n.title === title, NOTIFIED_MS);

      // It is the workflow's confirm step, waiting, as the server describes it.
      const step = await s.api.workRequests.get({ id: shown.notification.workRequestId });
      expect(step).toMatchObject({
        task_type: 'Wait',
        task_name: 'confirm',
        status: 'running',
        workflow_root: rootId,
      });
      expect((step as Record<string, unknown>).workflow_data).toMatchObject({
        needs_input: true,
      });
      expect(shown.notification.body).toContain(template);
      const inbox = await s.api.workRequests.needsMe();
      expect(inbox.map((wr) => wr.id)).toContain(step.id);
      const recent = await s.api.notifications.recent();
      expect(recent.find((n) => n.workRequestId === step.id)).toMatchObject({
        title,
        rootId,
        result: 'needs input',
      });

      // A click opens the step in the app.
      shown.handlers.onClick();
      await s.waitEvent(
        'app.navigate',
        (t) => t.kind === 'work-request' && t.id === step.id,
        5_000,
      );

      // Once only: a few seconds more, then a reconnection (whose catch-up checks again).
      await sleep(5_000);
      s.made.service.setNetworkAvailable(false);
      await s.waitEvent('connection.state', (c) => c.status === 'offline', 10_000);
      const reconnected = s.eventsOf('connection.state').length;
      s.made.service.setNetworkAvailable(true);
      await expect
        .poll(
          () =>
            s
              .eventsOf('connection.state')
              .slice(reconnected)
              .some((c) => c.status === 'connected'),
          { timeout: 30_000 },
        )
        .toBe(true);
      await sleep(5_000);
      const forStep = (n: { workRequestId: number }) => n.workRequestId === step.id;
      expect(s.made.notifier.shown.filter((r) => forStep(r.notification))).toHaveLength(1);
      expect(s.eventsOf('notification.shown').filter(forStep)).toHaveLength(1);
    },
  );
});
