/**
 * The router of the active server reads through a client of its own, closed only after it
 * has stopped: the session's client is the session's to replace and close on any of its
 * reloads, and a router that borrowed it failed every read after such a reload ("The
 * client was closed") while the watch service, seeing nothing change, kept it.
 *
 * The first start is where this showed: the session builds its first client before the
 * token from the environment is written (without a token), the watch service reads the
 * token just after it is written and starts watching, and the session's next reload
 * replaces its client. Here the token store and the profile reads hold each step until
 * the one before has happened, so that this order is the only one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { EventHub } from '../../src/main/bridge/event-outbox';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import { FileTokenStore } from '../../src/main/settings/token-store';
import { completionSocket, tableClient } from '../support/table-debusine';
import { workRequestFixture } from '../support/work-requests';
import { testCaller } from '../support/caller';
import { signedInService } from '../support/memory-bridge';

/** The renderer these tests stand for: it holds what they open. */
const caller = testCaller();

/** Resolves when `settle` is called, for the steps the test holds until another happened. */
function signal(): { promise: Promise<void>; settle: () => void; settled: () => boolean } {
  let settle = (): void => undefined;
  let done = false;
  const promise = new Promise<void>((resolve) => {
    settle = () => {
      done = true;
      resolve();
    };
  });
  return { promise, settle, settled: () => done };
}

/**
 * Writes a token only once the session has built its first client (`firstClient`), and
 * from then on answers reads after that write has landed: the session's first reload reads
 * no token, whoever reads next reads it.
 */
class TokenLandsLate extends FileTokenStore {
  readonly #firstClient: ReturnType<typeof signal>;
  #written: Promise<void> | undefined;
  readonly landed = signal();

  constructor(dataDir: string, firstClient: ReturnType<typeof signal>) {
    super(dataDir);
    this.#firstClient = firstClient;
  }

  override set(...args: Parameters<FileTokenStore['set']>): Promise<void> {
    this.#written = this.#firstClient.promise
      .then(() => super.set(...args))
      .then(() => {
        this.landed.settle();
      });
    return this.#written;
  }

  override async get(profileId: string) {
    if (this.#firstClient.settled()) await this.#written;
    return super.get(profileId);
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('keeps reading after the session replaced its client during the first start', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'watch-own-client-'));
  const socket = await completionSocket();
  cleanups.push(async () => {
    await socket.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const workflow = workRequestFixture(50, {
    task_type: 'Workflow',
    task_name: 'debian_pipeline',
    status: 'running',
    result: '',
    completed_at: null,
  });
  const api = tableClient(socket.apiUrl, new Map([[workflow.id, workflow]]));

  const firstClient = signal();
  const watching = signal();
  const tokens = new TokenLandsLate(dataDir, firstClient);
  const hub = new EventHub();
  hub.listen((message) => {
    // The watch service tells its first state once its watcher is made, after it took the
    // client it reads with.
    if (message.event === 'connection.state') watching.settle();
  });
  const service = signedInService(dataDir, socket.apiUrl, hub, {
    tokens,
    notifier: new RecordingNotifier(false),
    host: { transport: 'web', platform: 'linux' },
    createClient: () => {
      firstClient.settle();
      return api.open();
    },
  });
  cleanups.push(() => service.close());
  // The session's reloads after the token landed (the profile made active, the start's own
  // refresh) wait until the watch service has started watching: they are what replaces
  // the session's first client.
  const profiles = service.session.profiles;
  const load = profiles.load.bind(profiles);
  profiles.load = async () => {
    if (tokens.landed.settled()) await watching.promise;
    return load();
  };

  await service.start();
  await expect.poll(() => service.watch.connection.status, { timeout: 10_000 }).toBe('connected');
  await expect(
    service.handlers['watch.add']({ workRequestId: workflow.id, label: null }, caller),
  ).resolves.toMatchObject({ workRequestId: workflow.id, taskType: 'Workflow' });
});
