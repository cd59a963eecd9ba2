/**
 * A download names the server of the page that asks for it, as an artifact id means another
 * artifact, or none, on another server. Main refuses one naming any server but the active
 * one: before its save dialog opens, and again once the dialog closes, which a switch of
 * server may have outlasted. Refused, it asks the server nothing and writes nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestArgs, SavedDownload } from '../../src/shared/contract';
import { expectRefused, hostileServer, playground } from '../support/hostile-downloads';
import { createBridgeClient } from '../../src/shared/bridge-client';
import { trickle } from '../support/fake-debusine';
import { memoryBridge } from '../support/memory-bridge';
import { serviceBridge, type ServiceBridge } from '../support/service-bridge';

const server = hostileServer();

/** A service signed in to the fake server (its profile is the active one), and nothing else. */
const signedInToTheFake = () => ({
  DEBUSINE_DESKTOP_API_URL: server.fake.apiUrl,
  DEBUSINE_DESKTOP_TOKEN: 'token-for-the-fake',
  DEBUSINE_DESKTOP_CLI_CONFIG: '/nonexistent/config.ini',
  DEBUSINE_SANDBOX_HOME: '/nonexistent',
});

/** What the fake served of this artifact: its record, its files, its tarball. */
const servedOf = (id: number) =>
  server.fake.served.filter((s) => s.path.includes(`/artifact/${String(id)}/`));

const made: ServiceBridge[] = [];
afterEach(async () => {
  for (const bridge of made.splice(0)) await bridge.close();
});

/** An Electron service whose save dialog answers `choose`, recording each time it opens. */
async function electron(choose: (bridge: ServiceBridge) => Promise<string | null>) {
  const asked: unknown[] = [];
  const bridge: ServiceBridge = await serviceBridge(
    {
      host: {
        transport: 'electron',
        platform: 'linux',
        chooseDestination: (options) => {
          asked.push(options);
          return choose(bridge);
        },
      },
      env: signedInToTheFake(),
    },
    ['download.finished'],
  );
  made.push(bridge);
  const active = bridge.made.service.session.active()?.id;
  if (active === undefined) throw new Error('the fake server is not active');
  return { bridge, asked, active };
}

/** Each kind of save of artifact `id`, naming `server`. */
function saves(server: string, id: number): RequestArgs<'downloads.save'>[] {
  return [
    { what: 'file', server, artifactId: id, path: 'a.bin' },
    { what: 'tarball', server, artifactId: id },
    { what: 'folder', server, artifactIds: [id] },
  ];
}

describe('a download of another server than the active one', () => {
  it('is refused before the dialog opens, and nothing is fetched or written', async () => {
    const ground = playground();
    const id = server.artifact([{ path: 'a.bin', content: 'the file' }]);
    const { bridge, asked, active } = await electron(() =>
      Promise.resolve(join(ground.dest, 'a.bin')),
    );
    for (const args of saves(`${active}-other`, id)) {
      await expectRefused(ground, () => bridge.api.downloads.save(args), {
        code: 'conflict',
        rule: 'download-server',
      });
    }
    expect(asked).toEqual([]);
    expect(servedOf(id)).toEqual([]);
  });

  it('is refused when the server changed while the dialog was open, and nothing is written', async () => {
    const ground = playground();
    const id = server.artifact([{ path: 'a.bin', content: 'the file' }]);
    let other: string | undefined;
    const { bridge, asked, active } = await electron(async (b) => {
      // The user switches servers (a deep link, say) while the dialog is open.
      other ??= (
        await b.api.servers.add({
          name: 'Other',
          apiUrl: 'http://127.0.0.1:9/api',
          scope: null,
          defaultWorkspace: null,
        })
      ).id;
      await b.api.servers.setActive({ id: other });
      return join(ground.dest, 'chosen');
    });
    for (const args of saves(active, id)) {
      await bridge.api.servers.setActive({ id: active });
      await expectRefused(ground, () => bridge.api.downloads.save(args), {
        code: 'conflict',
        rule: 'download-server',
      });
    }
    expect(asked).toHaveLength(3);
    expect(servedOf(id)).toEqual([]);
  });

  it('is saved where the dialog chose when it is the active one', async () => {
    const ground = playground();
    const id = server.artifact([{ path: 'a.bin', content: 'the file' }]);
    let chosen = join(ground.dest, 'a.bin');
    const { bridge, asked, active } = await electron(() => Promise.resolve(chosen));
    const finished = async (saved: SavedDownload | null): Promise<void> => {
      if (saved?.savedBy !== 'app') throw new Error('main did not save it');
      for (const job of saved.jobs) {
        const done = await bridge.waitEvent('download.finished', (j) => j.jobId === job.jobId);
        expect(done.state).toBe('completed');
      }
    };
    await finished(
      await bridge.api.downloads.save({
        what: 'file',
        server: active,
        artifactId: id,
        path: 'a.bin',
      }),
    );
    expect(readFileSync(join(ground.dest, 'a.bin'), 'utf8')).toBe('the file');
    // The tarball goes under the name chosen for it, next to the file.
    chosen = join(ground.dest, 'mine.tar.gz');
    await finished(
      await bridge.api.downloads.save({ what: 'tarball', server: active, artifactId: id }),
    );
    expect(readdirSync(ground.dest).sort()).toEqual(['a.bin', 'mine.tar.gz']);
    expect(asked).toEqual([
      { kind: 'file', suggestedName: 'a.bin' },
      { kind: 'file', suggestedName: `artifact-${String(id)}.tar.gz` },
    ]);
  });
});

describe("a download's progress", () => {
  it('goes to the page that asked for it alone, which alone may stop it', async () => {
    const ground = playground();
    // A byte every 100 ms: still running when the other page tries to stop it.
    const id = server.artifact([
      { path: 'a.bin', content: 'the file', serve: trickle('the file', 1, 100) },
    ]);
    const { bridge, active } = await electron(() => Promise.resolve(join(ground.dest, 'a.bin')));
    const other = memoryBridge(bridge.made.handlers);
    // As the hosts do for every page: what main says to all reaches this one too.
    bridge.made.hub.listen((m) => {
      other.hub.emit(m.event, m.payload);
    });
    const heard: string[] = [];
    const otherClient = createBridgeClient(other.api);
    otherClient.on('download.progress', (job) => heard.push(`progress ${job.jobId}`));
    otherClient.on('download.finished', (job) => heard.push(`finished ${job.jobId}`));
    try {
      const saved = await bridge.api.downloads.save({
        what: 'file',
        server: active,
        artifactId: id,
        path: 'a.bin',
      });
      if (saved?.savedBy !== 'app') throw new Error('main did not save it');
      const [job] = saved.jobs;
      // Nor can it stop it: to the other page there is no such download.
      await expect(otherClient.downloads.cancel({ jobId: job?.jobId ?? '' })).rejects.toMatchObject(
        { code: 'not-found' },
      );
      const done = await bridge.waitEvent('download.finished', (j) => j.jobId === job?.jobId);
      expect(done.state).toBe('completed');
      // A request of the other page's, answered after the events: they would have come first.
      await otherClient.app.info();
      expect(heard).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('a download link of another server than the active one', () => {
  it('is refused', async () => {
    const id = server.artifact([{ path: 'a.bin', content: 'the file' }]);
    const bridge = await serviceBridge({ env: signedInToTheFake() });
    made.push(bridge);
    const active = bridge.made.service.session.active()?.id ?? '';
    await expect(
      bridge.api.downloads.link({ server: `${active}-other`, artifactId: id, path: 'a.bin' }),
    ).rejects.toMatchObject({ code: 'conflict', details: { rule: 'download-server' } });
    await expect(
      bridge.api.downloads.link({ server: active, artifactId: id, path: 'a.bin' }),
    ).resolves.toMatchObject({ name: 'a.bin' });
  });
});
