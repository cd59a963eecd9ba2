/**
 * What a page opens through the bridge is its own: a log handle, a draft and its folder of
 * links, the files it staged. A page that goes (a reload, a closed tab) cannot release
 * them itself, so main does when its connection closes; another page cannot use them, and
 * events about them go to the page that opened them alone.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBridgeClient } from '../../src/shared/bridge-client';
import type { BridgeClient } from '../../src/shared/contract';
import { CallerScope } from '../../src/main/bridge/caller';
import { startFakeDebusine, type FakeDebusine } from '../support/fake-debusine';
import { memoryBridge, testService } from '../support/memory-bridge';

let fake: FakeDebusine;

beforeAll(async () => {
  fake = await startFakeDebusine();
  const text = Array.from({ length: 500 }, (_, n) => `line ${String(n)}\n`).join('');
  fake.artifact(971, [{ path: 'build.log', content: text }]);
});
afterAll(async () => {
  await fake.close();
});

type Made = Awaited<ReturnType<typeof testService>>;

async function service(start = true): Promise<Made> {
  const made = await testService({
    env: { DEBUSINE_DESKTOP_API_URL: fake.apiUrl, DEBUSINE_DESKTOP_TOKEN: 'a-test-token' },
  });
  if (start) await made.service.start();
  return made;
}

/** The profile main seeded from the environment: the server the logs are on. */
function activeId(made: Made): string {
  return made.service.session.active()?.id ?? 'none';
}

function page(made: Made): { client: BridgeClient; close: () => Promise<void> } {
  const bridge = memoryBridge(made.handlers);
  return { client: createBridgeClient(bridge.api), close: () => bridge.close() };
}

type Page = ReturnType<typeof page>;

/** Runs `test` with a started service and two pages on it, and closes them all after. */
async function withTwoPages(
  test: (made: Made, first: Page, second: Page) => Promise<void>,
): Promise<void> {
  const made = await service();
  const first = page(made);
  const second = page(made);
  try {
    await test(made, first, second);
  } finally {
    await first.close();
    await second.close();
    await made.close();
  }
}

/** A file as the web host stages one: a copy main owns and deletes on release. */
async function stageCopy(made: Made, name: string, content: string): Promise<string> {
  const dir = join(made.dataDir, 'staging');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}-${String(Math.random()).slice(2)}`);
  await writeFile(path, content);
  return (await made.files.add(path, { name, owned: true })).id;
}

async function entries(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

describe('what a page opens goes with it', () => {
  it('leaves no log handle, draft folder or staged copy after 100 reloads with a log open', async () => {
    const made = await service();
    try {
      const stagedIds: string[] = [];
      for (let reload = 0; reload < 100; reload++) {
        const { client, close } = page(made);
        const log = await client.logs.open({
          server: activeId(made),
          artifactId: 971,
          path: 'build.log',
        });
        await client.logs.lines({ handle: log.handle, from: 0, count: 10 });
        const id = await stageCopy(made, 'notes.log', `reload ${String(reload)}\n`);
        stagedIds.push(id);
        await client.localArtifacts.detect({ fileIds: [id] });
        await close();
      }
      expect(made.service.logs.openHandles).toBe(0);
      expect(await entries(join(made.dataDir, 'drafts'))).toEqual([]);
      expect(stagedIds.filter((id) => made.files.get(id) !== undefined)).toEqual([]);
      // Past the 64 handles main keeps at most: a page still opens a log.
      const { client, close } = page(made);
      await expect(
        client.logs.open({ server: activeId(made), artifactId: 971, path: 'build.log' }),
      ).resolves.toMatchObject({ artifactId: 971 });
      await close();
      expect(made.service.logs.openHandles).toBe(0);
    } finally {
      await made.close();
    }
  });

  it("keeps a page's log handle, draft and progress from another page", () =>
    withTwoPages(async (made, first, second) => {
      const heard: string[] = [];
      second.client.on('logs.progress', (state) => heard.push(state.handle));
      const log = await first.client.logs.open({
        server: activeId(made),
        artifactId: 971,
        path: 'build.log',
      });
      await expect
        .poll(() => first.client.logs.info({ handle: log.handle }).then((s) => s.state))
        .toBe('ready');
      await expect(
        second.client.logs.lines({ handle: log.handle, from: 0, count: 1 }),
      ).rejects.toMatchObject({ code: 'not-found' });
      await expect(second.client.logs.close({ handle: log.handle })).rejects.toMatchObject({
        code: 'not-found',
      });
      await expect(
        first.client.logs.lines({ handle: log.handle, from: 0, count: 1 }),
      ).resolves.toMatchObject({ lines: [{ text: 'line 0' }] });

      const id = await stageCopy(made, 'notes.log', 'x\n');
      const [draft] = await first.client.localArtifacts.detect({ fileIds: [id] });
      const draftId = draft?.draftId ?? '';
      await expect(
        second.client.localArtifacts.update({ draftId, kind: 'workRequestDebugLogs' }),
      ).rejects.toMatchObject({ code: 'not-found' });
      // The staged file is the first page's now: the second cannot release it.
      await second.client.files.release({ ids: [id] });
      expect(made.files.get(id)).toBeDefined();
      await second.client.localArtifacts.discard({ draftId });
      expect(await entries(join(made.dataDir, 'drafts'))).toHaveLength(1);

      // The second page heard nothing of the first's log.
      await first.client.logs.info({ handle: log.handle });
      expect(heard).toEqual([]);

      await first.client.localArtifacts.discard({ draftId });
      expect(await entries(join(made.dataDir, 'drafts'))).toEqual([]);
      // The staged copy went with the draft, the only one made of it.
      expect(made.files.get(id)).toBeUndefined();
    }));

  it("lists a page's own drafts, and releases a draft's files when no other draft of the page uses them", () =>
    withTwoPages(async (made, first, second) => {
      const shared = await stageCopy(made, 'notes.log', 'shared\n');
      const own = await stageCopy(made, 'other.log', 'own\n');
      const [one] = await first.client.localArtifacts.detect({ fileIds: [shared] });
      const [two] = await first.client.localArtifacts.detect({ fileIds: [shared, own] });
      const ids = (drafts: { draftId: string }[]): string[] => drafts.map((d) => d.draftId);
      expect(ids(await first.client.localArtifacts.list())).toEqual([one?.draftId, two?.draftId]);
      expect(await second.client.localArtifacts.list()).toEqual([]);
      // What the upload screen shows of each file comes with the draft.
      expect(two?.dropped.map((f) => f.name)).toEqual(['notes.log', 'other.log']);
      const left = await first.client.localArtifacts.update({
        draftId: two?.draftId ?? '',
        excludeFiles: [own],
      });
      expect(left.userExcludedFileIds).toEqual([own]);
      expect((await first.client.localArtifacts.list())[1]).toEqual(left);

      await first.client.localArtifacts.discard({ draftId: two?.draftId ?? '' });
      // `own` was that draft's alone; `shared` is still the first draft's.
      expect(made.files.get(own)).toBeUndefined();
      expect(made.files.get(shared)).toBeDefined();
      expect(ids(await first.client.localArtifacts.list())).toEqual([one?.draftId]);
      await first.client.localArtifacts.discard({ draftId: one?.draftId ?? '' });
      expect(made.files.get(shared)).toBeUndefined();
      expect(await first.client.localArtifacts.list()).toEqual([]);
      expect(await entries(join(made.dataDir, 'drafts'))).toEqual([]);
    }));

  it('refuses to open a log of another server than the active one, and opens nothing', async () => {
    const made = await service();
    const { client, close } = page(made);
    try {
      await expect(
        client.logs.open({ server: 'another-profile', artifactId: 971, path: 'build.log' }),
      ).rejects.toMatchObject({ code: 'conflict', details: { rule: 'log-server' } });
      await expect(
        client.logs.openLive({ server: 'another-profile', workRequestId: 1 }),
      ).rejects.toMatchObject({ code: 'conflict', details: { rule: 'log-server' } });
      expect(made.service.logs.openHandles).toBe(0);
    } finally {
      await close();
      await made.close();
    }
  });

  it("gives a page its server's web address only while that server is the active one", async () => {
    const made = await service();
    const { client, close } = page(made);
    try {
      // The server switched after the page was drawn: its address is refused, not the new one's.
      await expect(
        client.links.webui({ server: 'another-profile', path: '/debusine/System/work-request/1/' }),
      ).rejects.toMatchObject({ code: 'conflict', details: { rule: 'link-server' } });
      const url = await client.links.webui({
        server: activeId(made),
        path: '/debusine/System/work-request/1/',
      });
      expect(url).toMatch(/\/debusine\/System\/work-request\/1\/$/);
    } finally {
      await close();
      await made.close();
    }
  });

  it('tells no page of the logs main opens for itself', async () => {
    const made = await service();
    const { client, close } = page(made);
    try {
      const heard: string[] = [];
      client.on('logs.progress', (state) => heard.push(state.handle));
      // Main's own caller stands for the failure explainer and the tray.
      const own = made.service.own;
      const opened = await made.handlers['logs.open'](
        { server: activeId(made), artifactId: 971, path: 'build.log' },
        own,
      );
      await made.handlers['logs.close']({ handle: opened.handle }, own);
      const mine = await client.logs.open({
        server: activeId(made),
        artifactId: 971,
        path: 'build.log',
      });
      await client.logs.info({ handle: mine.handle });
      expect(heard.every((handle) => handle === mine.handle)).toBe(true);
      expect(made.events.filter((e) => e.event === 'logs.progress')).toEqual([]);
    } finally {
      await close();
      await made.close();
    }
  });

  it('removes at start the draft folders no recorded upload reads from', async () => {
    const made = await service(false);
    try {
      const left = join(made.dataDir, 'drafts', 'left-by-a-crash');
      await mkdir(left, { recursive: true });
      await writeFile(join(left, 'foo.dsc'), 'x');
      await made.service.start();
      expect(await entries(join(made.dataDir, 'drafts'))).toEqual([]);
    } finally {
      await made.close();
    }
  });
});

describe('CallerScope', () => {
  it('releases what it holds once, on release or on close, and at once after close', async () => {
    const released: string[] = [];
    const scope = new CallerScope(() => undefined);
    const hold = (key: string): void => {
      scope.hold(key, () => {
        released.push(key);
        return Promise.resolve();
      });
    };
    hold('a');
    hold('b');
    hold('c');
    scope.forget('c');
    await expect(scope.release('a')).resolves.toBe(true);
    await expect(scope.release('a')).resolves.toBe(false);
    await scope.close();
    expect(released).toEqual(['a', 'b']);
    hold('late');
    await expect.poll(() => released).toEqual(['a', 'b', 'late']);
    expect(scope.size).toBe(0);
  });

  it('goes on releasing when one release fails, and reports it', async () => {
    const failures: string[] = [];
    const scope = new CallerScope(
      () => undefined,
      (key) => failures.push(key),
    );
    let released = false;
    scope.hold('broken', () => Promise.reject(new Error('disk full')));
    scope.hold('fine', () => {
      released = true;
      return Promise.resolve();
    });
    await scope.close();
    expect(failures).toEqual(['broken']);
    expect(released).toBe(true);
  });
});
