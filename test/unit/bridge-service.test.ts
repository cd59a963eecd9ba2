import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REQUEST_CHANNELS, requests } from '../../src/shared/contract';
import { testService } from '../support/memory-bridge';
import { SAMPLE_ARGS } from './bridge-samples';
import { testCaller } from '../support/caller';

/** The renderer these tests stand for: it holds what they open. */
const caller = testCaller();

type Made = Awaited<ReturnType<typeof testService>>;
const made: Made[] = [];

async function service(
  host?: NonNullable<Parameters<typeof testService>[0]>['host'],
): Promise<Made> {
  const s = await testService(host ? { host } : {});
  await s.service.start();
  made.push(s);
  return s;
}

afterEach(async () => {
  for (const s of made.splice(0)) await s.close();
});

describe('the service', () => {
  it('has a handler for every request', async () => {
    const { handlers } = await service();
    expect(Object.keys(handlers).sort()).toEqual([...REQUEST_CHANNELS].sort());
  });

  it('answers no entry with "not available yet"', { timeout: 120_000 }, async () => {
    for (const channel of REQUEST_CHANNELS) {
      // A fresh service each time: some samples add servers, and none of them is reachable.
      const { handlers } = await service();
      const handler = handlers[channel] as (a: unknown, c: typeof caller) => Promise<unknown>;
      const args = requests[channel].args.parse(SAMPLE_ARGS[channel]);
      const outcome = await handler(args, caller).then(
        () => null,
        (e: unknown) => e,
      );
      // Without a server most entries fail (auth, not-found…), but none is a placeholder.
      expect((outcome as Error | null)?.message ?? '', channel).not.toContain('not available yet');
    }
  });

  it('reports no server and refuses server calls with `auth` when none is configured', async () => {
    const { handlers } = await service();
    await expect(handlers['session.whoami'](undefined, caller)).resolves.toEqual({
      server: null,
      user: null,
      userId: null,
      authenticated: false,
    });
    await expect(handlers['workRequests.get']({ id: 1 }, caller)).rejects.toMatchObject({
      code: 'auth',
    });
    await expect(handlers['connection.get'](undefined, caller)).resolves.toMatchObject({
      status: 'signed-out',
      serverId: null,
    });
  });

  it('says which entries the browser cannot offer, and why', async () => {
    const { handlers } = await service();
    for (const [channel, args] of [
      ['files.pick', { multiple: true, folder: false }],
      ['downloads.save', { what: 'file', server: 'env', artifactId: 1, path: 'a' }],
      ['notifications.chooseCommand', undefined],
      ['notifications.removeCommand', undefined],
    ] as const) {
      const handler = handlers[channel] as (a: unknown, c: typeof caller) => Promise<unknown>;
      await expect(handler(args, caller), channel).rejects.toMatchObject({
        code: 'unsupported',
        message: expect.stringContaining('not available in the browser') as string,
      });
    }
  });

  it('tells in app.info what each host does its own way, not which host it is', async () => {
    const web = await service();
    const inBrowser = await web.handlers['app.info'](undefined, caller);
    expect(inBrowser.capabilities).toEqual({
      saveDownload: 'browser',
      dropFolders: 'page',
      completionCommand: 'file',
      notifications: 'browser',
    });
    expect(inBrowser).not.toHaveProperty('transport');
    const electron = await service({
      transport: 'electron',
      platform: 'linux',
      chooseProgram: () => Promise.resolve(null),
    });
    await expect(electron.handlers['app.info'](undefined, caller)).resolves.toMatchObject({
      capabilities: {
        saveDownload: 'dialog',
        dropFolders: 'main',
        completionCommand: 'dialog',
        notifications: 'desktop',
      },
    });
  });

  it('uses the host for dialogs in Electron', async () => {
    const { handlers } = await service({
      transport: 'electron',
      platform: 'linux',
      pickFiles: () => Promise.resolve([import.meta.filename]),
    });
    const [picked] = await handlers['files.pick']({ multiple: false, folder: false }, caller);
    expect(picked).toMatchObject({ name: 'bridge-service.test.ts' });
    expect(JSON.stringify(picked)).not.toContain('/test/unit');
    await expect(
      handlers['downloads.link']({ server: 'env', artifactId: 1 }, caller),
    ).rejects.toMatchObject({ code: 'unsupported' });
  });

  it('stages the files of a folder picked in Electron, as of a dropped one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'picked-folder-'));
    await writeFile(join(folder, 'b.dsc'), 'b');
    await writeFile(join(folder, 'a.tar.xz'), 'a');
    const asked: unknown[] = [];
    const { handlers } = await service({
      transport: 'electron',
      platform: 'linux',
      pickFiles: (options) => {
        asked.push(options);
        return Promise.resolve([folder]);
      },
    });
    const picked = await handlers['files.pick']({ multiple: true, folder: true }, caller);
    expect(asked).toEqual([{ multiple: true, folder: true, title: undefined }]);
    expect(picked.map((f) => f.name)).toEqual(['a.tar.xz', 'b.dsc']);
  });

  it('refuses a download path that is not a relative path inside an artifact', async () => {
    const web = await service();
    await expect(
      web.handlers['downloads.link']({ server: 'env', artifactId: 1, path: '../x' }, caller),
    ).rejects.toMatchObject({
      code: 'validation',
      details: { field: 'path', rule: 'artifact-path' },
    });
    const electron = await service({ transport: 'electron', platform: 'linux' });
    await expect(
      electron.handlers['downloads.save'](
        { what: 'file', server: 'env', artifactId: 1, path: 'a/../../x' },
        caller,
      ),
    ).rejects.toMatchObject({ code: 'validation' });
  });

  it('keeps notification settings in the data directory', async () => {
    const s = await service();
    const next = await s.handlers['notifications.setSettings'](
      {
        mode: 'mine',
        failuresOnly: true,
      },
      caller,
    );
    expect(next).toEqual({
      mode: 'mine',
      workspaces: [],
      failuresOnly: true,
      snoozedUntil: null,
      commandHook: null,
      commandFile: join(s.dataDir, 'completion-command.json'),
      commandProblem: null,
    });
    const onDisk = JSON.parse(
      await readFile(join(s.dataDir, 'notifications.json'), 'utf8'),
    ) as unknown;
    expect(onDisk).toMatchObject({ mode: 'mine', failuresOnly: true });
    await expect(s.handlers['notifications.recent'](undefined, caller)).resolves.toEqual([]);
  });

  it('lists the kinds a draft can take', async () => {
    const { handlers } = await service();
    const kinds = await handlers['localArtifacts.kinds'](undefined, caller);
    expect(kinds).toContainEqual({ kind: 'sourcePackage', category: 'debian:source-package' });
  });
});
