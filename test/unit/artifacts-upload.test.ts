import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../src/main/api/http';
import { UploadJobStore } from '../../src/main/artifacts/transfer/job-store';
import type { ProgressEvent } from '../../src/main/artifacts/transfer/progress';
import { uploadFiles } from '../../src/main/artifacts/transfer/upload';
import { parseRangeHeader } from '../../src/main/artifacts/transfer/upload-file';
import { DebusineError } from '../../src/shared/errors';

/**
 * A fake of the server's upload view (docs/debusine-server-facts.md), with faults a real
 * server will not produce on demand: a 409 on completion, a 500 on a chunk, slow answers.
 */
interface Stored {
  data: Buffer;
  size: number;
  sha256: string;
}
const files = new Map<string, Stored>();
const faults: {
  conflictOnce: Set<string>;
  errorOnce: Set<string>;
  delayMs: number;
  /** A pause after each piece of a body the server reads, so that the client's writes queue. */
  slowReadMs: number;
} = {
  conflictOnce: new Set(),
  errorOnce: new Set(),
  delayMs: 0,
  slowReadMs: 0,
};
let active = 0;
let maxActive = 0;
let bodyBytes = 0;
let server: Server;
let apiUrl = '';

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
    if (faults.slowReadMs) await new Promise((r) => setTimeout(r, faults.slowReadMs));
  }
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      try {
        const body = await readBody(req);
        bodyBytes += body.length;
        if (faults.delayMs) await new Promise((r) => setTimeout(r, faults.delayMs));
        const path = decodeURIComponent(
          (req.url ?? '').replace(/^\/api\/1\.0\/artifact\/1\/files\//, '').replace(/\/$/, ''),
        );
        const stored = files.get(path);
        if (!stored) return void res.writeHead(404).end();
        const range = req.headers['content-range'] ?? '';
        if (range === `bytes */${String(stored.size)}`) {
          if (stored.data.length === stored.size && stored.size > 0)
            return void res.writeHead(200).end();
          return void res.writeHead(206, { range: `bytes=0-${String(stored.data.length)}` }).end();
        }
        const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
        if (!match) return void res.writeHead(400).end();
        const start = Number(match[1]);
        if (faults.errorOnce.delete(path)) return void res.writeHead(500).end();
        if (start > stored.data.length) return void res.writeHead(400).end();
        stored.data = Buffer.concat([stored.data.subarray(0, start), body]);
        if (stored.data.length === stored.size) {
          const digest = createHash('sha256').update(stored.data).digest('hex');
          if (digest !== stored.sha256 || faults.conflictOnce.delete(path)) {
            stored.data = Buffer.alloc(0);
            return void res
              .writeHead(409, { 'content-type': 'application/problem+json' })
              .end(JSON.stringify({ title: 'Invalid file hash' }));
          }
          return void res.writeHead(201).end();
        }
        res.writeHead(200, { range: `bytes=0-${String(stored.data.length)}` }).end();
      } finally {
        active--;
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  apiUrl = `http://127.0.0.1:${String(address.port)}/api`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  files.clear();
  faults.conflictOnce.clear();
  faults.errorOnce.clear();
  faults.delayMs = 0;
  faults.slowReadMs = 0;
  maxActive = 0;
  bodyBytes = 0;
});

function localFile(name: string, size: number): { path: string; data: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'ddt-up-'));
  const data = randomBytes(size);
  const path = join(dir, name);
  writeFileSync(path, data);
  files.set(name, {
    data: Buffer.alloc(0),
    size,
    sha256: createHash('sha256').update(data).digest('hex'),
  });
  return { path, data };
}

const transport = () => new HttpTransport({ apiUrl, token: 't', retries: 0 });

describe('the upload protocol', () => {
  it('parses the non-standard Range header', () => {
    expect(parseRangeHeader('bytes=0-1024')).toBe(1024);
    expect(parseRangeHeader('bytes=5-10')).toBeUndefined();
    expect(parseRangeHeader(undefined)).toBeUndefined();
  });

  it('uploads in chunks, several files at once, with progress per file and in total', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const map = Object.fromEntries(names.map((n) => [n, localFile(n, 300_000).path]));
    faults.delayMs = 20;
    const events: ProgressEvent[] = [];
    const result = await uploadFiles(transport(), 1, map, {
      chunkSize: 100_000,
      concurrency: 3,
      onProgress: (e) => events.push(e),
    });
    expect(result.uploaded).toEqual(names);
    expect(maxActive).toBeLessThanOrEqual(3);
    expect(maxActive).toBeGreaterThan(1);
    for (const n of names) expect(files.get(n)?.data.length).toBe(300_000);
    const total = events.filter((e) => e.type === 'total').at(-1);
    expect(total).toMatchObject({
      bytes: 1_800_000,
      total: 1_800_000,
      filesDone: 6,
      filesTotal: 6,
      eta: 0,
    });
    expect(events.some((e) => e.type === 'file' && e.path === 'a' && e.state === 'done')).toBe(
      true,
    );
  });

  it('starts the largest file first, whatever order it is given in', async () => {
    const map = {
      'pkg.dsc': localFile('pkg.dsc', 1_000).path,
      'pkg.debian.tar.xz': localFile('pkg.debian.tar.xz', 20_000).path,
      'pkg.orig.tar.gz': localFile('pkg.orig.tar.gz', 400_000).path,
      'pkg.buildinfo': localFile('pkg.buildinfo', 5_000).path,
    };
    const started: string[] = [];
    const result = await uploadFiles(transport(), 1, map, {
      concurrency: 1,
      onFileStart: (path) => {
        started.push(path);
        return Promise.resolve();
      },
    });
    expect(started).toEqual(['pkg.orig.tar.gz', 'pkg.debian.tar.xz', 'pkg.buildinfo', 'pkg.dsc']);
    // What it answers stays sorted by name.
    expect(result.uploaded).toEqual(Object.keys(map).sort());
  });

  it('sends every byte as the file has it to a server that reads slowly, the buffers read into being reused', async () => {
    // 9 MiB and a bit: more reads than the body reads into buffers, each filled again while
    // the server still holds back the socket.
    const size = 9 * 2 ** 20 + 12_345;
    const { path, data } = localFile('big.bin', size);
    faults.slowReadMs = 2;
    const result = await uploadFiles(transport(), 1, { 'big.bin': path });
    expect(result.uploaded).toEqual(['big.bin']);
    // Stored whole and equal, in one pass: a changed byte would have made the server answer
    // 409 and the file be sent again.
    expect(files.get('big.bin')?.data.equals(data)).toBe(true);
    expect(bodyBytes).toBe(size);
  });

  it('continues from what the server has, without re-sending it', async () => {
    const { path, data } = localFile('partial', 250_000);
    const stored = files.get('partial');
    if (stored) stored.data = data.subarray(0, 120_000);
    await uploadFiles(transport(), 1, { partial: path }, { chunkSize: 100_000 });
    expect(bodyBytes).toBe(130_000);
    expect(files.get('partial')?.data.equals(data)).toBe(true);
  });

  it('restarts the whole file after a 409, and retries a chunk after a 500', async () => {
    const { path, data } = localFile('flaky', 250_000);
    faults.conflictOnce.add('flaky');
    faults.errorOnce.add('flaky');
    await uploadFiles(transport(), 1, { flaky: path }, { chunkSize: 100_000, retryBaseMs: 1 });
    expect(files.get('flaky')?.data.equals(data)).toBe(true);
    expect(bodyBytes).toBe(250_000 * 2 + 100_000);
  });

  it('reports a file that is present as present, without sending it', async () => {
    const { path, data } = localFile('there', 1000);
    const stored = files.get('there');
    if (stored) stored.data = data;
    const result = await uploadFiles(transport(), 1, { there: path });
    expect(result).toEqual({ uploaded: [], present: ['there'] });
    expect(bodyBytes).toBe(0);
  });

  it('stops on cancel with a cancelled error', async () => {
    const { path } = localFile('slow', 500_000);
    faults.delayMs = 100;
    const controller = new AbortController();
    setTimeout(() => {
      controller.abort();
    }, 150);
    const error = await uploadFiles(
      transport(),
      1,
      { slow: path },
      { chunkSize: 50_000, signal: controller.signal },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DebusineError);
    expect((error as DebusineError).code).toBe('cancelled');
  });

  it('names the file when the server refuses it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-up-'));
    writeFileSync(join(dir, 'unknown'), 'x');
    const error = await uploadFiles(transport(), 1, { unknown: join(dir, 'unknown') }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'not-found' });
    expect((error as Error).message).toContain('unknown (artifact 1)');
  });
});

describe('the upload job store', () => {
  it('saves, lists and removes jobs, skipping unreadable files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-jobs-'));
    const store = new UploadJobStore(dir);
    const job = await store.create({
      apiUrl: 'http://x/api',
      scope: 'debusine',
      workspace: 'System',
      parts: [
        {
          category: 'debian:upload',
          label: 'a',
          request: null,
          artifactId: 3,
          files: { a: { local: '/tmp/a', size: 1, mtimeMs: 1 } },
          done: [],
          begun: [],
          missing: [],
        },
      ],
    });
    writeFileSync(join(dir, 'garbage.json'), '{');
    writeFileSync(join(dir, 'extra.json'), JSON.stringify({ ...job, id: 'extra', unknown: 1 }));
    expect((await store.list()).map((j) => j.id)).toEqual([job.id]);
    job.parts[0]?.done.push('a');
    await store.save(job);
    expect((await store.get(job.id))?.parts[0]?.done).toEqual(['a']);
    await store.remove(job.id);
    expect(await store.list()).toEqual([]);
  });

  it('reads a job an earlier version wrote, and goes on with it probing each file left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-jobs-'));
    const legacy = {
      id: 'old-1',
      apiUrl: 'http://x/api',
      scope: 'debusine',
      artifactId: 7,
      workspace: 'System',
      category: 'debian:upload',
      createdAt: '2026-01-01T00:00:00.000Z',
      files: {
        'a.changes': { local: '/tmp/a.changes', size: 1, mtimeMs: 1 },
        'b.dsc': { local: '/tmp/b.dsc', size: 2, mtimeMs: 2 },
      },
      done: ['a.changes'],
      state: 'uploading',
      error: null,
    };
    writeFileSync(join(dir, 'old-1.json'), JSON.stringify(legacy));
    const [job] = await new UploadJobStore(dir).list();
    expect(job).toMatchObject({
      version: 2,
      id: 'old-1',
      workspace: 'System',
      relate: false,
      workflow: null,
      parts: [
        {
          category: 'debian:upload',
          artifactId: 7,
          files: legacy.files,
          done: ['a.changes'],
          begun: ['a.changes', 'b.dsc'],
        },
      ],
    });
  });
});
