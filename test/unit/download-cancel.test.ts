/**
 * Stopping downloads: over the bridge (downloads.cancel, logs.cancel), by the browser that
 * hangs up on a download link, and by the app's own end. What the user sees afterwards is
 * checked on disk: the destination and its parent as they were, no staging folder, and the
 * server told (it sees its connection closed early). What a crash leaves is removed at the
 * next start, and only that: nothing the user made, even under the same name.
 */
import { randomBytes } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Staging, STAGING_MARKER } from '../../src/main/artifacts/transfer/staging';
import { StagingJournal } from '../../src/main/artifacts/transfer/staging-journal';
import { startWebHost as startHostInProcess } from '../../src/main/web/host';
import { createDispatcher } from '../../src/main/bridge/dispatch';
import { stallAfter } from '../support/fake-debusine';
import { hostileServer, playground } from '../support/hostile-downloads';
import type { DownloadJob, SavedDownload } from '../../src/shared/contract';
import { serviceBridge, type ServiceBridge } from '../support/service-bridge';
import { snapshotTree } from '../support/tree-snapshot';

const server = hostileServer();
const BIG = randomBytes(2 * 2 ** 20);

/** A file the server starts to send, then holds: a download that runs until stopped. */
function held(path = 'big.bin') {
  let stalled!: () => void;
  const started = new Promise<void>((resolve) => (stalled = resolve));
  const id = server.artifact([
    {
      path,
      content: BIG,
      serve: stallAfter(BIG, 256 * 1024, () => {
        stalled();
      }),
    },
  ]);
  return { id, started };
}

/** A service signed in to the fake server, and to nothing from this machine. */
const signedInToTheFake = () => ({
  DEBUSINE_DESKTOP_API_URL: server.fake.apiUrl,
  DEBUSINE_DESKTOP_TOKEN: 'token-for-the-fake',
  DEBUSINE_DESKTOP_CLI_CONFIG: '/nonexistent/config.ini',
  DEBUSINE_SANDBOX_HOME: '/nonexistent',
});

/** What main's save dialog answers next, as if the user chose it. */
let chosen = '';

/** The page's server: the one the fake's environment signed in to. */
const serverOf = (bridge: ServiceBridge): string => bridge.made.service.session.active()?.id ?? '';

/** The one job main started for a save. */
function onlyJob(saved: SavedDownload | null): DownloadJob {
  if (saved?.savedBy !== 'app') throw new Error('main did not save it');
  const [job] = saved.jobs;
  if (job === undefined || saved.jobs.length !== 1) throw new Error('not one job');
  return job;
}

describe('cancelling over the bridge', () => {
  let bridge: ServiceBridge;

  beforeAll(async () => {
    bridge = await serviceBridge(
      {
        host: {
          transport: 'electron',
          platform: 'linux',
          chooseDestination: () => Promise.resolve(chosen),
        },
        env: signedInToTheFake(),
      },
      ['download.finished', 'logs.progress'],
    );
  });
  afterAll(async () => {
    await bridge.close();
  });

  it.each(['file', 'folder', 'tarball'] as const)(
    'downloads.cancel stops a %s download and leaves the destination as it was',
    async (what) => {
      const ground = playground();
      const before = snapshotTree(ground.root);
      const { id, started } = held();
      const profile = serverOf(bridge);
      chosen = {
        file: join(ground.dest, 'big.bin'),
        folder: ground.dest,
        tarball: join(ground.dest, 'big.tar.gz'),
      }[what];
      const job = onlyJob(
        await bridge.api.downloads.save(
          what === 'file'
            ? { what, server: profile, artifactId: id, path: 'big.bin' }
            : what === 'folder'
              ? { what, server: profile, artifactIds: [id] }
              : { what, server: profile, artifactId: id },
        ),
      );
      if (what !== 'tarball') await started;
      const cancelled = await bridge.api.downloads.cancel({ jobId: job.jobId });
      expect(cancelled.state).toBe('cancelled');
      expect(cancelled.error?.code).toBe('cancelled');
      const finished = await bridge.waitEvent('download.finished', (j) => j.jobId === job.jobId);
      expect(finished.state).toBe('cancelled');
      expect(snapshotTree(ground.root)).toEqual(before);
      if (what !== 'tarball') {
        await expect.poll(() => server.downloadsOf(id).at(-1)?.closedEarly).toBe(true);
      }
      // Nothing left to cancel: said so, nothing else changes.
      await expect(bridge.api.downloads.cancel({ jobId: job.jobId })).rejects.toMatchObject({
        code: 'not-found',
      });
    },
  );

  it('logs.cancel stops a log that is still arriving; opening it again starts over', async () => {
    const { id, started } = held('build.log');
    const opened = await bridge.api.logs.open({
      server: bridge.made.service.session.active()?.id ?? '',
      artifactId: id,
      path: 'build.log',
    });
    await started;
    const state = await bridge.api.logs.cancel({ handle: opened.handle });
    expect(state.state).toBe('failed');
    expect(state.error?.code).toBe('cancelled');
    await bridge.api.logs.close({ handle: opened.handle });
    await expect.poll(() => server.downloadsOf(id).at(-1)?.closedEarly).toBe(true);
    // Nothing of it was kept: the next open downloads it again.
    const again = await bridge.api.logs.open({
      server: bridge.made.service.session.active()?.id ?? '',
      artifactId: id,
      path: 'build.log',
    });
    expect(again).toMatchObject({ state: 'loading', fromCache: false, error: null });
    await bridge.api.logs.cancel({ handle: again.handle });
    await bridge.api.logs.close({ handle: again.handle });
  });

  it('closing the service stops its downloads, leaving nothing behind', async () => {
    const other = await serviceBridge({
      host: {
        transport: 'electron',
        platform: 'linux',
        chooseDestination: () => Promise.resolve(chosen),
      },
      env: signedInToTheFake(),
    });
    const ground = playground();
    const before = snapshotTree(ground.root);
    const { id, started } = held();
    chosen = ground.dest;
    onlyJob(
      await other.api.downloads.save({
        what: 'folder',
        server: serverOf(other),
        artifactIds: [id],
      }),
    );
    await started;
    await other.close();
    expect(snapshotTree(ground.root)).toEqual(before);
  });
});

describe('a browser that hangs up on a download link', () => {
  it('stops the fetch from the server', async () => {
    const bridge = await serviceBridge({
      env: signedInToTheFake(),
    });
    const host = await startHostInProcess({
      root: mkdtempSync(join(tmpdir(), 'empty-renderer-')),
      dispatch: createDispatcher(bridge.made.handlers),
      hub: bridge.made.hub,
      files: bridge.made.files,
      downloads: bridge.made.service.downloads,
    });
    try {
      const { id, started } = held();
      const link = await bridge.api.downloads.link({
        server: serverOf(bridge),
        artifactId: id,
        path: 'big.bin',
      });
      const req = request(`${host.origin}${link.url}`);
      req.on('error', () => undefined);
      req.end();
      await started;
      req.destroy();
      await expect.poll(() => server.downloadsOf(id).at(-1)?.closedEarly).toBe(true);
      // Nothing of it stays in the app's folder either.
      await expect.poll(() => readdirSync(join(bridge.made.dataDir, 'downloads')).length).toBe(0);
    } finally {
      await host.close();
      await bridge.close();
    }
  });
});

describe('what an unfinished download left, at the next start', () => {
  it('removes its own staging folders and nothing else', async () => {
    const data = mkdtempSync(join(tmpdir(), 'journal-'));
    const ground = playground();
    const journal = new StagingJournal(join(data, 'journal.json'));
    // Two downloads cut short, as by a crash: their folders stay, and stay recorded.
    const cut = await Staging.open(ground.dest, journal);
    writeFileSync(join(cut.root, 'half.bin'), 'half');
    const nested = join(ground.dest, 'new-folder');
    const cutInNew = await Staging.open(nested, journal);
    // What the user made, beside them: a folder of the same kind of name (no marker), one
    // whose marker is someone else's, and a link of that name to a folder of theirs.
    const lookalike = join(ground.dest, '.debusine-download-mine');
    mkdirSync(lookalike);
    writeFileSync(join(lookalike, 'keep.txt'), 'mine');
    const forged = join(ground.dest, '.debusine-download-forged');
    mkdirSync(forged);
    writeFileSync(join(forged, STAGING_MARKER), 'A download of Debusine Desktop: 0000\n');
    symlinkSync(ground.outside, join(ground.dest, '.debusine-download-link'));
    // The journal also names those (as a tampered or stale journal might).
    const file = join(data, 'journal.json');
    const entries = JSON.parse(readFileSync(file, 'utf8')) as { folder: string; token: string }[];
    writeFileSync(
      file,
      JSON.stringify([
        ...entries,
        { folder: lookalike, token: 'x' },
        { folder: forged, token: '0000' },
        { folder: join(ground.dest, '.debusine-download-link'), token: 'x' },
        { folder: ground.outside, token: 'x' },
      ]),
    );
    const removed = await new StagingJournal(file).sweep();
    expect(removed.sort()).toEqual([dirname(cut.root), dirname(cutInNew.root)].sort());
    expect(readdirSync(ground.dest).sort()).toEqual([
      '.debusine-download-forged',
      '.debusine-download-link',
      '.debusine-download-mine',
      'new-folder',
    ]);
    expect(readdirSync(nested)).toEqual([]);
    expect(readdirSync(lookalike)).toEqual(['keep.txt']);
    expect(readdirSync(ground.outside)).toEqual(['keep.txt']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('the service sweeps at start, before any download', async () => {
    const ground = playground();
    const bridge = await serviceBridge();
    const journal = new StagingJournal(join(bridge.made.dataDir, 'downloads-under-way.json'));
    await Staging.open(ground.dest, journal);
    expect(readdirSync(ground.dest)).toHaveLength(1);
    await bridge.made.service.start();
    expect(readdirSync(ground.dest)).toEqual([]);
    await bridge.close();
  });
});
