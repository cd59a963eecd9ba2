/**
 * The log store against a real local HTTP server (the fake Debusine): windows of lines,
 * reads before the file has all arrived, the cache (reuse without a request, the size
 * checked again, eviction of the least recently used, never of an open file), and what a
 * lying server leaves behind: nothing.
 */
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDebusine, sha256, type FakeDebusine } from '../support/fake-debusine';
import { isReady, logStoreOn, type StoreUnderTest } from '../support/log-store';

let fake: FakeDebusine;
let nextId = 800;
const stores: (StoreUnderTest & { cleanup(): Promise<void> })[] = [];

beforeAll(async () => {
  fake = await startFakeDebusine();
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  for (const s of stores.splice(0)) await s.cleanup();
});

function store(options: { cap?: number } = {}) {
  const made = logStoreOn(fake, options);
  stores.push(made);
  return made;
}

const lineText = (n: number) => `line ${String(n)}: compiling module-${String(n % 97)}.c`;
const logOf = (lines: number) =>
  Buffer.from(Array.from({ length: lines }, (_, n) => `${lineText(n)}\n`).join(''));

function serve(content: Buffer, path = 'hello_1.0_amd64.build'): number {
  const id = nextId++;
  fake.artifact(id, [{ path, content }]);
  return id;
}

const requestsFor = (id: number) =>
  fake.served.filter((s) => s.path.includes(`/artifact/${String(id)}/`)).length;

describe('a log opened from the server', () => {
  it('reads windows of lines, and stops at the end and at 2000 lines', async () => {
    const s = store();
    const id = serve(logOf(5000));
    const opened = await s.open(id, 'hello_1.0_amd64.build');
    expect(opened).toMatchObject({
      artifactId: id,
      path: 'hello_1.0_amd64.build',
      fromCache: false,
    });
    expect(JSON.stringify(opened)).not.toContain(s.dir);
    const ready = await s.wait(opened.handle, isReady);
    expect(ready).toMatchObject({ state: 'ready', lines: 5000, bytes: logOf(5000).length });
    expect(ready.analysis).toMatchObject({ kind: 'sbuild' });

    const first = await s.store.lines(opened.handle, 0, 3);
    expect(first).toEqual({
      handle: opened.handle,
      from: 0,
      lines: [0, 1, 2].map((n) => ({ text: lineText(n), cut: null })),
      totalLines: 5000,
      done: true,
    });
    const last = await s.store.lines(opened.handle, 4998, 100);
    expect(last.lines.map((l) => l.text)).toEqual([lineText(4998), lineText(4999)]);
    expect((await s.store.lines(opened.handle, 5000, 10)).lines).toEqual([]);
    const big = await s.store.lines(opened.handle, 1000, 3000);
    expect(big.lines).toHaveLength(2000);
    expect(big.lines[1999]?.text).toBe(lineText(2999));
  });

  it(
    'indexes a log of 200 000 lines, and reads any window of it',
    { timeout: 30_000 },
    async () => {
      const s = store();
      const content = logOf(200_000);
      const id = serve(content);
      const { handle } = await s.open(id, 'hello_1.0_amd64.build');
      await s.wait(handle, isReady);
      expect(s.store.state(handle).lines).toBe(200_000);
      for (const from of [0, 123_456, 199_000]) {
        const window = await s.store.lines(handle, from, 2000);
        expect(window.lines).toHaveLength(Math.min(2000, 200_000 - from));
        expect(window.lines.map((l) => l.text)).toEqual(
          Array.from({ length: window.lines.length }, (_, k) => lineText(from + k)),
        );
      }
    },
  );

  it('shows the first lines while the rest is still on its way', { timeout: 30_000 }, async () => {
    const s = store();
    const content = logOf(100_000);
    const first = 1_200_000;
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const id = nextId++;
    fake.artifact(id, [
      {
        path: 'slow.log',
        content,
        serve: (_req, res: ServerResponse) => {
          res.writeHead(200, { 'content-length': String(content.length) });
          res.write(content.subarray(0, first));
          void released.then(() => res.end(content.subarray(first)));
        },
      },
    ]);
    const { handle } = await s.open(id, 'slow.log');
    const partial = await s.wait(handle, (st) => st.bytes >= first);
    expect(partial.state).toBe('loading');
    const readable = content.subarray(0, first).lastIndexOf(10);
    expect(partial.lines).toBe(
      content
        .subarray(0, readable + 1)
        .toString()
        .split('\n').length - 1,
    );
    const window = await s.store.lines(handle, 0, 5);
    expect(window).toMatchObject({ done: false, totalLines: partial.lines });
    expect(window.lines.map((l) => l.text)).toEqual([0, 1, 2, 3, 4].map(lineText));
    // Past what arrived: nothing yet, rather than a made-up or half line.
    expect((await s.store.lines(handle, partial.lines, 5)).lines).toEqual([]);
    const search = await s.store.search(
      handle,
      'line 99999:',
      { regex: false, caseSensitive: true },
      0,
      'next',
    );
    expect(search).toMatchObject({ matches: 0, complete: false, searchedLines: partial.lines });
    // The page is told of the lines that arrived, while the rest has not: the notice the
    // throttle held back comes at the end of its interval, without more data.
    await expect
      .poll(
        () => s.events.some((e) => e.handle === handle && e.state === 'loading' && e.lines > 0),
        {
          timeout: 5_000,
        },
      )
      .toBe(true);

    release();
    const done = await s.wait(handle, isReady);
    expect(done).toMatchObject({ state: 'ready', lines: 100_000 });
    const again = await s.store.search(
      handle,
      'line 99999:',
      { regex: false, caseSensitive: true },
      0,
      'next',
    );
    expect(again).toMatchObject({ matches: 1, line: 99_999, complete: true });
    expect(s.events.at(-1)).toMatchObject({ handle, state: 'ready', lines: 100_000 });
  });

  it('refuses a path outside the artifact before any request', async () => {
    const s = store();
    const id = serve(logOf(3));
    await expect(s.open(id, '../../etc/passwd')).rejects.toMatchObject({
      code: 'validation',
      details: { rule: 'artifact-path' },
    });
    await expect(s.open(id, 'missing.log')).rejects.toMatchObject({ code: 'not-found' });
    expect(s.onDisk()).toEqual([]);
  });
});

describe('the log cache', () => {
  it('opens a log again without a request, also after a restart', async () => {
    const s = store();
    const id = serve(logOf(1000));
    const one = await s.open(id, 'hello_1.0_amd64.build');
    await s.wait(one.handle, isReady);
    await s.store.close(one.handle);
    const requests = requestsFor(id);
    expect(requests).toBe(2);

    const two = await s.open(id, 'hello_1.0_amd64.build');
    expect(two.fromCache).toBe(true);
    expect(await s.wait(two.handle, isReady)).toMatchObject({ state: 'ready', lines: 1000 });
    expect((await s.store.lines(two.handle, 999, 1)).lines[0]?.text).toBe(lineText(999));

    const restarted = s.restart();
    const three = await restarted.open(id, 'hello_1.0_amd64.build');
    expect(three.fromCache).toBe(true);
    await restarted.wait(three.handle, isReady);
    await restarted.close();
    expect(requestsFor(id)).toBe(requests);
  });

  it('downloads again a cached file whose size changed', async () => {
    const s = store();
    const id = serve(logOf(1000));
    const one = await s.open(id, 'hello_1.0_amd64.build');
    await s.wait(one.handle, isReady);
    await s.store.close(one.handle);
    const file = s.cache.fileOf(s.cache.keyOf(fake.apiUrl, id, 'hello_1.0_amd64.build'));
    truncateSync(file, 100);
    const two = await s.open(id, 'hello_1.0_amd64.build');
    expect(two.fromCache).toBe(false);
    expect(await s.wait(two.handle, isReady)).toMatchObject({ state: 'ready', lines: 1000 });
    expect(requestsFor(id)).toBe(4);
  });

  it('evicts the least recently used files at its cap, never an open one', async () => {
    const content = logOf(2000);
    const s = store({ cap: Math.floor(content.length * 2.5) });
    const [a, b, c, d] = [
      serve(content, 'a.log'),
      serve(content, 'b.log'),
      serve(content, 'c.log'),
      serve(content, 'd.log'),
    ];
    const fileOf = (id: number, path: string) => `${s.cache.keyOf(fake.apiUrl, id, path)}.log`;
    const keptA = await s.open(a, 'a.log');
    await s.wait(keptA.handle, isReady);
    const openB = await s.open(b, 'b.log');
    await s.wait(openB.handle, isReady);
    await s.store.close(openB.handle);
    // a (open) and b fill the cache: c's room comes from b, though a is older.
    const openC = await s.open(c, 'c.log');
    await s.wait(openC.handle, isReady);
    await s.store.close(openC.handle);
    const logs = () => s.onDisk().filter((n) => n.endsWith('.log'));
    expect(logs().sort()).toEqual([fileOf(a, 'a.log'), fileOf(c, 'c.log')].sort());
    expect((await s.store.lines(keptA.handle, 1999, 1)).lines[0]?.text).toBe(lineText(1999));
    await s.store.close(keptA.handle);
    const openD = await s.open(d, 'd.log');
    await s.wait(openD.handle, isReady);
    expect(logs().sort()).toEqual([fileOf(c, 'c.log'), fileOf(d, 'd.log')].sort());
    expect(s.cache.total).toBeLessThanOrEqual(s.cache.cap);
  });

  it('refuses a file larger than the whole cache, without downloading it', async () => {
    const s = store({ cap: 1000 });
    const id = serve(logOf(1000));
    await expect(s.open(id, 'hello_1.0_amd64.build')).rejects.toMatchObject({
      code: 'validation',
      details: { rule: 'log-size' },
    });
    expect(fake.servedUnder(`/debusine/System/artifact/${String(id)}/download/`)).toEqual([]);
    expect(s.onDisk()).toEqual([]);
  });
});

describe('a lying server', () => {
  it(
    'leaves nothing in the cache when the SHA-256 does not match',
    { timeout: 30_000 },
    async () => {
      const s = store();
      const content = logOf(50_000);
      const id = nextId++;
      fake.artifact(id, [
        { path: 'lie.log', content, checksums: { sha256: sha256('something else') } },
      ]);
      const { handle } = await s.open(id, 'lie.log');
      const failed = await s.wait(handle, isReady);
      expect(failed).toMatchObject({
        state: 'failed',
        error: { code: 'bad-response', details: { rule: 'download-verify' } },
        analysis: null,
      });
      expect(s.onDisk()).toEqual([]);
      // What was read before the check failed is not served.
      await expect(s.store.lines(handle, 0, 10)).rejects.toMatchObject({ code: 'bad-response' });
      await s.store.close(handle);
      expect(s.onDisk()).toEqual([]);
      // Nothing was kept: opening it again asks the server again.
      const before = requestsFor(id);
      const again = await s.open(id, 'lie.log');
      await s.wait(again.handle, isReady);
      expect(requestsFor(id)).toBe(before + 2);
      expect(s.onDisk()).toEqual([]);
    },
  );

  it('leaves nothing in the cache when it sends more than it declares', async () => {
    const s = store();
    const content = logOf(1000);
    const id = nextId++;
    fake.artifact(id, [
      {
        path: 'long.log',
        content,
        serve: (_req, res) => {
          res.writeHead(200).end(Buffer.concat([content, Buffer.from('and more\n')]));
        },
      },
    ]);
    const { handle } = await s.open(id, 'long.log');
    expect(await s.wait(handle, isReady)).toMatchObject({
      state: 'failed',
      error: { code: 'bad-response', details: { rule: 'download-size' } },
    });
    expect(s.onDisk()).toEqual([]);
  });

  it('does not trust a file in the cache without its record', async () => {
    const s = store();
    const id = serve(logOf(10));
    const key = s.cache.keyOf(fake.apiUrl, id, 'hello_1.0_amd64.build');
    // What a download cut by a crash (or anything but the app) leaves: a file, no record.
    mkdirSync(s.dir, { recursive: true });
    writeFileSync(s.cache.fileOf(key), 'planted\n');
    const restarted = s.restart();
    const { handle, fromCache } = await restarted.open(id, 'hello_1.0_amd64.build');
    expect(fromCache).toBe(false);
    await restarted.wait(handle, isReady);
    expect((await restarted.store.lines(handle, 0, 1)).lines[0]?.text).toBe(lineText(0));
    await restarted.close();
  });
});
