/**
 * "Sign and upload" on the desktop notification of a step that waits for a signature: it
 * signs on the server that showed the notification, even after the app moved to another
 * one (whose work request of the same number is another, or none), and answers on the
 * desktop: signed, with the key and why (as the step's page says it), or choose the key on
 * the step's page and why, or why not.
 *
 * The whole service runs. Its client of the first server answers the watch's reads from a
 * table (as in needs-input.test.ts) and everything else over HTTP from a fake server with
 * the step and its unsigned upload (signing-server.ts); gpg and debsign are the real ones,
 * in a GnuPG home of the test's own.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { EventHub, type EventMessage } from '../../src/main/bridge/event-outbox';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import type { AppService } from '../../src/main/composition-root';
import { keyLookup } from '../../src/main/signing/debsign';
import { debsignRunner } from '../../src/main/signing/run-debsign';
import type { WorkRequestResponse } from '../../src/shared/models';
import { have, missingDebianTools } from '../support/debian-fixtures';
import { testGnupg, type TestGnupg } from '../support/gnupg';
import {
  fixtureUpload,
  madeRecord,
  signingServer,
  type SigningServer,
} from '../support/signing-server';
import { serverKey, UploadsMade, type UploadMade } from '../../src/main/signing/uploads-made';
import { completionSocket, tableClient, type CompletionSocket } from '../support/table-debusine';
import { runningPipelineFixture, workRequestFixture } from '../support/work-requests';
import { testCaller } from '../support/caller';
import { signedInService } from '../support/memory-bridge';
import { navigationsOf } from '../support/navigations';

/** The renderer these tests stand for: it holds what they open. */
const caller = testCaller();

const TOOLS = ['gpg', 'gpgv', 'gpgconf', 'debsign'];
const skip =
  missingDebianTools() ??
  (TOOLS.every(have) ? undefined : `needs ${TOOLS.join(', ')} (apt-get install devscripts gpg)`);

const ROOT = 40;
const STEP = 41;

function tableOf(): Map<number, WorkRequestResponse> {
  return new Map([
    [ROOT, runningPipelineFixture(ROOT)],
    [
      STEP,
      workRequestFixture(STEP, {
        task_type: 'Wait',
        task_name: 'externaldebsign',
        status: 'running',
        result: '',
        completed_at: null,
        parent: ROOT,
        workflow_root: ROOT,
        workflow_data: { display_name: 'Sign upload' },
      }),
    ],
  ]);
}

/** The first server's client: the watch reads from the table, the rest goes to `signing`. */
function firstServerClient(
  apiUrl: string,
  signing: SigningServer,
  table: Map<number, WorkRequestResponse>,
): DebusineClient {
  const real = signing.client();
  const fromTable = tableClient(apiUrl, table).open();
  const client = Object.create(real) as DebusineClient;
  Object.assign(client, {
    serverRevision: fromTable.serverRevision.bind(fromTable),
    whoami: fromTable.whoami.bind(fromTable),
    workRequestGet: fromTable.workRequestGet.bind(fromTable),
    workRequestIter: fromTable.workRequestIter.bind(fromTable),
    close: async () => {
      await fromTable.close();
      await real.close();
    },
  });
  return client;
}

interface Running {
  service: AppService;
  notifier: RecordingNotifier;
  events: EventMessage[];
  signing: SigningServer;
  /** Signing calls that reached the other server's client. */
  askedOfOther: string[];
  socket: CompletionSocket;
}

describe.skipIf(skip)('"Sign and upload" on a notification', { timeout: 90_000 }, () => {
  let gnupg: TestGnupg;
  let files: { path: string; content: Buffer }[];
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    gnupg = await testGnupg();
    // The uploader's key: the fixtures' .changes is Changed-By this user.
    await gnupg.addKey('Debusine Desktop Tests <tests@example.org>');
    files = await fixtureUpload();
  }, 120_000);
  afterAll(async () => {
    await gnupg.close();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await rm(join(gnupg.home, '.devscripts'), { force: true });
  });

  /** The service signed in to the first server, watching the workflow; its notification. */
  async function start(change: ((made: UploadMade) => void) | null = () => undefined) {
    const dataDir = await mkdtemp(join(tmpdir(), 'signing-notification-'));
    const socket = await completionSocket();
    const other = await completionSocket();
    const signing = await signingServer({ files, stepId: STEP });
    const table = tableOf();
    const askedOfOther: string[] = [];
    const notifier = new RecordingNotifier(true);
    const hub = new EventHub();
    const events: EventMessage[] = [];
    hub.listen((m) => events.push(m));
    const record = (name: string) => () => {
      askedOfOther.push(name);
      return Promise.reject(new Error(`${name} asked of the other server`));
    };
    const service = signedInService(dataDir, socket.apiUrl, hub, {
      notifier,
      host: { transport: 'electron', platform: 'darwin' },
      createClient: (options) =>
        options.apiUrl === other.apiUrl
          ? tableClient(other.apiUrl, new Map(), {
              workRequestExternalDebsignGet: record('workRequestExternalDebsignGet'),
              workRequestExternalDebsignComplete: record('workRequestExternalDebsignComplete'),
              artifactGet: record('artifactGet'),
              artifactCreate: record('artifactCreate'),
            }).open()
          : firstServerClient(socket.apiUrl, signing, table),
      signing: { keys: keyLookup(gnupg.env), run: debsignRunner(gnupg.env) },
    });
    cleanups.push(async () => {
      await service.close();
      await signing.close();
      await socket.close();
      await other.close();
      await rm(dataDir, { recursive: true, force: true });
    });
    await service.start();
    // The app made the upload the step names (or, with `change`, another like it).
    if (change !== null) {
      const active = service.session.active();
      await new UploadsMade(dataDir).record({
        ...madeRecord(files, change),
        server: serverKey(service.session.client().apiUrl, active?.scope ?? null),
      });
    }
    await expect.poll(() => service.watch.connection.status, { timeout: 10_000 }).toBe('connected');
    await service.handlers['watch.add']({ workRequestId: ROOT, label: null }, caller);
    const shown = await notifier.waitFor((n) => n.workRequestId === STEP, 10_000);
    const r: Running = { service, notifier, events, signing, askedOfOther, socket };
    const firstId = service.session.active()?.id ?? '';
    // Then the user moves to another server, before acting on the notification.
    const added = await service.handlers['servers.add'](
      {
        name: 'elsewhere',
        apiUrl: other.apiUrl,
        scope: null,
        defaultWorkspace: null,
      },
      caller,
    );
    await service.handlers['servers.setActive']({ id: added.id }, caller);
    return { r, shown, firstId, otherId: added.id };
  }

  it('signs on the server that showed it, and says so', async () => {
    const { r, shown, otherId } = await start();
    expect(shown.notification.title).toBe(`Workflow #${String(ROOT)} waits for your signature`);
    expect(shown.notification.actions.map((a) => a.id)).toEqual(['sign', 'open-in-browser']);
    expect(shown.notification.actions[0]?.label).toBe('Sign and upload');

    shown.handlers.onAction('sign');
    const answer = await r.notifier.waitFor((n) => n.key === `signed-${String(STEP)}`, 30_000);
    const [artifact] = r.signing.created;
    if (!artifact) throw new Error('nothing was uploaded');
    expect(answer.notification.title).toBe(`Signed: work request #${String(STEP)} is complete`);
    expect(answer.notification.body).toContain(`artifact #${String(artifact.id)}`);
    // The key the step's page would have shown, and why.
    expect(answer.notification.body).toContain(
      "It is your secret key for “tests@example.org”: the .changes' Changed-By",
    );
    expect(r.signing.completions).toEqual([{ signed_artifact: artifact.id }]);
    expect(r.signing.stepStatus).toBe('completed');
    // Nothing was asked of the active server, and the app stayed on it.
    expect(r.askedOfOther).toEqual([]);
    expect(r.service.session.active()?.id).toBe(otherId);
  });

  it("signs with the key the step's page shows, read from the same server", async () => {
    const { r, shown, firstId } = await start();
    const choice = await r.service.handlers['signing.keyChoice'](
      { workRequestId: STEP, serverId: firstId },
      caller,
    );
    const [key] = choice.named;
    expect(choice.named).toHaveLength(1);
    expect(r.askedOfOther).toEqual([]);
    shown.handlers.onAction('sign');
    const answer = await r.notifier.waitFor((n) => n.key === `signed-${String(STEP)}`, 30_000);
    expect(answer.notification.body).toContain(`signed with key ${key?.keyId ?? '?'}`);
    expect(answer.notification.body).toContain(choice.reason);
  });

  it("asks for the key on the step page when debsign's names none", async () => {
    // DEBSIGN_KEYID decides alone, as in debsign, though the uploader's key is here.
    await writeFile(join(gnupg.home, '.devscripts'), `DEBSIGN_KEYID=${'D'.repeat(40)}\n`);
    const { r, shown, otherId } = await start();
    shown.handlers.onAction('sign');
    const answer = await r.notifier.waitFor((n) => n.key === `choose-key-${String(STEP)}`, 30_000);
    expect(answer.notification.body).toContain(
      `DEBSIGN_KEYID in ${join(gnupg.home, '.devscripts')} (line 1) is “${'D'.repeat(40)}”, ` +
        'which names none of your secret keys',
    );
    expect(r.signing.created).toEqual([]);
    expect(r.signing.completions).toEqual([]);
    expect(r.askedOfOther).toEqual([]);
    // Its click opens the step on its own server.
    answer.handlers.onClick();
    await expect.poll(() => navigationsOf(r)).toEqual([{ kind: 'work-request', id: STEP }]);
    expect(r.service.session.active()?.id).not.toBe(otherId);
  });

  it.each([
    ['another version', (m: UploadMade) => (m.version = '0.9-1')],
    ['another Distribution', (m: UploadMade) => (m.distribution = 'bookworm-security')],
    ['no upload made here', null],
  ])(
    'signs nothing from the notification when the upload is not the one made here (%s), and opens the step',
    async (_what, change) => {
      const { r, shown, otherId } = await start(change);
      shown.handlers.onAction('sign');
      const answer = await r.notifier.waitFor((n) => n.key === `review-${String(STEP)}`, 30_000);
      expect(answer.notification.title).toBe(`Read before signing work request #${String(STEP)}`);
      expect(answer.notification.body).toContain('Nothing was signed');
      expect(r.signing.created).toEqual([]);
      expect(r.signing.completions).toEqual([]);
      expect(r.signing.stepStatus).toBe('running');
      // The step's page opens at once, on the server that showed the notification.
      await expect.poll(() => navigationsOf(r)).toEqual([{ kind: 'work-request', id: STEP }]);
      expect(r.service.session.active()?.id).not.toBe(otherId);
    },
  );

  it('says on the desktop why it could not, naming the artifact made', async () => {
    const { r, shown } = await start();
    r.signing.refuseCompletion('Signed by a key the archive does not accept');
    shown.handlers.onAction('sign');
    const answer = await r.notifier.waitFor((n) => n.key === `sign-failed-${String(STEP)}`, 30_000);
    const [artifact] = r.signing.created;
    if (!artifact) throw new Error('nothing was uploaded');
    expect(answer.notification.title).toBe(`Could not sign work request #${String(STEP)}`);
    expect(answer.notification.body).toContain('Signed by a key the archive does not accept');
    expect(answer.notification.body).toContain(`artifact ${String(artifact.id)}`);
    expect(r.signing.stepStatus).toBe('running');
  });
});
