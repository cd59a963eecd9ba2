/**
 * What apt is told to trust comes from a server that may lie. A server that names one key
 * as the archive's and hands over another (claiming the first one's fingerprint), hands
 * over something that is not a key, or names a scope that would write a path, gets no
 * `.sources` entry from the app; the remembered repositories survive a damaged file and stay
 * per server. The server here is a stand-in for the client (the real one is in
 * repositories-service.test.ts, on the sandbox).
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import {
  REPOSITORIES_PER_SERVER,
  RepositoriesStore,
} from '../../src/main/archives/repositories-store';
import {
  type ArchiveProbe,
  probeArchive,
  repositoryHandlers,
  servedToAnyone,
} from '../../src/main/service/repositories';
import type { SessionProvider } from '../../src/main/service/session';
import type { AssetResponse, CollectionData } from '../../src/shared/models';
import { testCaller } from '../support/caller';
import { testGnupg, type TestGnupg } from '../support/gnupg';

const run = promisify(execFile);
const API = 'https://debusine.example/api';

interface Lies {
  archiveKeys: string[];
  assets: AssetResponse[];
  webui: string;
  /** What the suite holds (none when absent). */
  items?: { name: string; category: string; data: Record<string, unknown> }[];
}

function collection(
  name: string,
  category: string,
  data: Record<string, unknown>,
  webui: string,
): CollectionData {
  return {
    id: 1,
    name,
    category,
    full_history_retention_period: null,
    metadata_only_retention_period: null,
    data,
    links: { webui_self: webui },
  } as CollectionData;
}

function lyingSession(lies: Lies): SessionProvider {
  const client = {
    apiUrl: API,
    collectionGet: (_ws: string, category: string, name: string) =>
      Promise.resolve(
        category === 'debian:archive'
          ? collection('_', category, { signing_keys: lies.archiveKeys }, lies.webui)
          : collection(
              name,
              category,
              { components: ['main'], architectures: ['amd64'] },
              lies.webui,
            ),
      ),
    assetList: () => Promise.resolve(lies.assets),
    collectionItemIter: async function* () {
      await Promise.resolve();
      yield* lies.items ?? [];
    },
  } as unknown as DebusineClient;
  return {
    active: () => ({
      id: 'example',
      name: 'Example',
      apiUrl: API,
      scope: 'debian',
      defaultWorkspace: null,
      hasToken: true,
    }),
    client: () => client,
    close: () => Promise.resolve(),
  };
}

const keyAsset = (armored: string, claimed: string): AssetResponse =>
  ({
    id: 7,
    category: 'debusine:signing-key',
    data: { public_key: Buffer.from(armored).toString('base64'), fingerprint: claimed },
    work_request: null,
    workspace: 'developers-x',
    links: {},
  }) as AssetResponse;

describe('what apt is told to trust', () => {
  let gnupg: TestGnupg;
  let dir: string;
  const keys: { fingerprint: string; armored: string }[] = [];
  beforeAll(async () => {
    gnupg = await testGnupg();
    for (const uid of ['Archive <archive@example.org>', 'Intruder <intruder@example.org>']) {
      const fingerprint = await gnupg.addKey(uid);
      const { stdout } = await run('gpg', ['--batch', '--armor', '--export', fingerprint], {
        env: gnupg.env,
      });
      keys.push({ fingerprint, armored: stdout });
    }
  }, 60_000);
  afterAll(async () => {
    await gnupg.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ddt-repositories-hostile-'));
    return () => rm(dir, { recursive: true, force: true });
  });

  async function setup(lies: Lies, probe: ArchiveProbe = { status: 200 }) {
    const handlers = repositoryHandlers({
      session: lyingSession(lies),
      store: new RepositoriesStore(dir),
      started: (wr) => Promise.resolve(wr),
      probeArchive: () => Promise.resolve(probe),
    });
    await handlers['repositories.setArchiveUrl']({ url: 'https://deb.example' }, testCaller());
    return handlers['repositories.aptSetup'](
      { workspace: 'developers-x', suite: 'sid', withSources: false },
      testCaller(),
    );
  }

  it('writes the archive’s own key when the server hands it over', async () => {
    const [archive] = keys;
    if (!archive) throw new Error('no key');
    const setup_ = await setup({
      archiveKeys: [archive.fingerprint],
      assets: [keyAsset(archive.armored, archive.fingerprint)],
      webui: '/debian/developers-x/collection/debian:archive/_/',
    });
    expect(setup_.keyState).toBe('present');
    expect(setup_.keyFingerprints).toEqual([archive.fingerprint]);
    expect(setup_.sources).toContain(' -----BEGIN PGP PUBLIC KEY BLOCK-----\n');
    expect(setup_.repositoryUri).toBe('https://deb.example/debian/developers-x');
  });

  it('tells a key not due yet from a late one, and an archive host that does not answer', async () => {
    const webui = '/debian/developers-x/collection/debian:archive/_/';
    // Nothing published: no key is due, and none is asked of the archive's assets.
    const empty = await setup({ archiveKeys: [], assets: [], webui });
    expect([empty.keyState, empty.suiteHasPackages, empty.sources]).toEqual([
      'not-yet',
      false,
      null,
    ]);
    expect(empty.archiveProblem).toBeNull();
    // Published, yet the archive names no key: the key is late.
    const late = await setup({
      archiveKeys: [],
      assets: [],
      webui,
      items: [{ name: 'hello_2.10-3', category: 'debian:source-package', data: {} }],
    });
    expect([late.keyState, late.suiteHasPackages]).toEqual(['not-yet', true]);
    // The archive host's silence is said, and whether the repository is public stays unknown
    // rather than guessed.
    const silent = await setup(
      { archiveKeys: [], assets: [], webui },
      { problem: 'no answer within 5 s' },
    );
    expect(silent.archiveProblem).toBe('no answer within 5 s');
    expect(silent.private).toBeNull();
  });

  it('writes no key when the server hands over another one under the archive key’s fingerprint', async () => {
    const [archive, intruder] = keys;
    if (!archive || !intruder) throw new Error('no keys');
    for (const assets of [
      [keyAsset(intruder.armored, archive.fingerprint)],
      [keyAsset('not a key at all', archive.fingerprint)],
      [keyAsset('x'.repeat(600 * 1024), archive.fingerprint)],
      [],
    ]) {
      const answer = await setup({
        archiveKeys: [archive.fingerprint],
        assets,
        webui: '/debian/developers-x/collection/debian:archive/_/',
      });
      expect(answer).toMatchObject({ keyState: 'mismatch', sources: null });
      expect(answer.keyFingerprints).not.toContain(intruder.fingerprint);
    }
    // The archive's key beside an intruder's: only the archive's goes in.
    const both = await setup({
      archiveKeys: [archive.fingerprint],
      assets: [
        keyAsset(intruder.armored, intruder.fingerprint),
        keyAsset(archive.armored, archive.fingerprint),
      ],
      webui: '/debian/developers-x/collection/debian:archive/_/',
    });
    expect(both.keyFingerprints).toEqual([archive.fingerprint]);
    const gpgHome = await mkdtemp(join(tmpdir(), 'ddt-gpg-'));
    try {
      const armored = (both.sources ?? '')
        .split('\n')
        .filter((l) => l.startsWith(' '))
        .map((l) => (l === ' .' ? '' : l.slice(1)))
        .join('\n');
      await writeFile(join(gpgHome, 'k.asc'), armored);
      const { stdout } = await run(
        'gpg',
        ['--batch', '--with-colons', '--show-keys', join(gpgHome, 'k.asc')],
        {
          env: { ...process.env, GNUPGHOME: gpgHome },
        },
      );
      expect(stdout).toContain(archive.fingerprint);
      expect(stdout).not.toContain(intruder.fingerprint);
    } finally {
      await rm(gpgHome, { recursive: true, force: true });
    }
  });

  it('refuses a scope that would be a path', async () => {
    await expect(
      setup({ archiveKeys: [], assets: [], webui: '/../etc/collection/debian:archive/_/' }),
    ).rejects.toThrow(/The scope “..” cannot go into an APT source/);
  });
});

describe('RepositoriesStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ddt-repositories-store-'));
    return () => rm(dir, { recursive: true, force: true });
  });

  const entry = (server: string, workspace: string) => ({
    server,
    workspace,
    kind: 'kept' as const,
    public: true,
    addedAt: '2026-11-29T00:00:00Z',
    workflowId: null,
  });

  it('keeps each server’s repositories apart, and the newest when one server’s are too many', async () => {
    const store = new RepositoriesStore(dir);
    await store.remember(entry('other', 'theirs'));
    for (let n = 0; n < REPOSITORIES_PER_SERVER + 5; n++)
      await store.remember(entry('mine', `ws-${String(n)}`));
    const mine = await store.list('mine');
    expect(mine).toHaveLength(REPOSITORIES_PER_SERVER);
    expect(mine.at(-1)?.workspace).toBe(`ws-${String(REPOSITORIES_PER_SERVER + 4)}`);
    expect(mine[0]?.workspace).toBe('ws-5');
    expect(await store.list('other')).toEqual([entry('other', 'theirs')]);
    await store.setArchiveUrl('mine', 'http://localhost:18016');
    expect(await store.archiveUrl('mine')).toBe('http://localhost:18016');
    expect(await store.archiveUrl('other')).toBeNull();
  }, 60_000);

  it('loses only a damaged entry, and nothing of a file it cannot read', async () => {
    await writeFile(
      join(dir, 'repositories.json'),
      JSON.stringify({
        repositories: [entry('s', 'good'), { server: 's', workspace: 42 }, 'junk'],
        archiveUrls: 'junk',
      }),
    );
    const store = new RepositoriesStore(dir);
    expect((await store.list('s')).map((r) => r.workspace)).toEqual(['good']);
    await writeFile(join(dir, 'repositories.json'), '{ not json');
    expect(await store.list('s')).toEqual([]);
    await store.remember(entry('s', 'new'));
    expect(JSON.parse(await readFile(join(dir, 'repositories.json'), 'utf8'))).toMatchObject({
      repositories: [entry('s', 'new')],
    });
  });
});

describe('probeArchive', () => {
  it('tells a public repository from a private one by the archive’s answer, sending nothing of the user’s', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      const status = { '/public/': 200, '/private/': 404, '/broken/': 500, '/moved/': 302 }[
        req.url ?? ''
      ];
      res.writeHead(status ?? 400, status === 302 ? { location: 'http://evil.example/' } : {});
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    try {
      const told = async (path: string) => servedToAnyone(await probeArchive(`${base}${path}`));
      expect(await told('/public')).toBe(true);
      expect(await told('/private')).toBe(false);
      expect(await told('/broken')).toBeNull();
      expect(await told('/moved')).toBeNull();
      // An answer, even an unhelpful one, is an archive host that answers.
      expect(await probeArchive(`${base}/broken`)).toEqual({ status: 500 });
      for (const headers of seen) {
        expect(headers).not.toHaveProperty('authorization');
        expect(headers).not.toHaveProperty('token');
        expect(headers).not.toHaveProperty('cookie');
      }
      // Not followed: the redirect's target was never asked.
      expect(seen).toHaveLength(5);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('says why an archive host did not answer: nothing listening, or silence', async () => {
    // A port that was just free: nothing listens there.
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const closedPort = (free.address() as AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    const closed = await probeArchive(`http://127.0.0.1:${String(closedPort)}/debian/x`);
    expect(closed).toEqual({ problem: 'connection refused: nothing listens there' });
    expect(servedToAnyone(closed)).toBeNull();

    // A port fetch refuses (apt would not): not blamed on the host.
    expect(await probeArchive('http://127.0.0.1:6000/debian/x')).toEqual({
      problem:
        'this app may not ask port 6000 (a port of another protocol); apt may still reach it',
    });

    // A host that takes the connection and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as AddressInfo).port;
    try {
      expect(await probeArchive(`http://127.0.0.1:${String(port)}/debian/x`)).toEqual({
        problem: 'no answer within 5 s',
      });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  }, 20_000);
});
