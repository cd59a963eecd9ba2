import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../src/main/api/http';
import { downloadArtifact, downloadArtifactFile } from '../../src/main/artifacts/transfer/download';
import { DebusineError } from '../../src/shared/errors';

interface Entry {
  name: string;
  type?: '0' | '1' | '2' | '3' | '5';
  body?: string;
  link?: string;
}

/** A ustar archive written by hand, so that it can hold what no honest tool writes. */
function tar(entries: Entry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? '');
    const header = Buffer.alloc(512);
    header.write(entry.name, 0, 100, 'utf8');
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write(entry.type ?? '0', 156);
    header.write(entry.link ?? '', 157, 100, 'utf8');
    header.write('ustar\0', 257);
    header.write('00', 263);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

let server: Server;
let base = '';
const routes = new Map<string, { status?: number; body: Buffer | string; type?: string }>();

function artifactJson(id: number, files: Record<string, string>): string {
  return JSON.stringify({
    id,
    workspace: 'System',
    category: 'debusine:work-request-debug-logs',
    created_at: '2026-11-21T00:00:00Z',
    data: {},
    download_tar_gz_url: `${base}/debusine/System/artifact/${String(id)}/download/?archive=tar.gz`,
    files_to_upload: [],
    files: Object.fromEntries(
      Object.entries(files).map(([path, content]) => [
        path,
        {
          size: Buffer.byteLength(content),
          checksums: { sha256: sha(content) },
          type: 'file',
          url: `${base}/debusine/System/artifact/${String(id)}/download/${path}`,
        },
      ]),
    ),
  });
}

function serve(id: number, files: Record<string, string>, archive: Buffer): void {
  routes.set(`/api/1.0/artifact/${String(id)}/`, {
    body: artifactJson(id, files),
    type: 'application/json',
  });
  routes.set(`/debusine/System/artifact/${String(id)}/download/?archive=tar.gz`, { body: archive });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const route = routes.get(req.url ?? '');
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    res.writeHead(route.status ?? 200, {
      'content-type': route.type ?? 'application/octet-stream',
    });
    res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  base = `http://127.0.0.1:${String(address.port)}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function transport(): HttpTransport {
  return new HttpTransport({ apiUrl: `${base}/api`, token: 't', retries: 0 });
}

const HOSTILE: [string, Entry[], string][] = [
  ['an absolute path', [{ name: '/tmp/ddt-evil-abs' }], 'archive-path'],
  ['a ".." path', [{ name: '../ddt-evil-dotdot', body: 'x' }], 'archive-path'],
  ['a nested ".." path', [{ name: 'a/../../ddt-evil-nested', body: 'x' }], 'archive-path'],
  [
    'a symlink out, then a write through it',
    [
      { name: 'out', type: '2', link: '../..' },
      { name: 'out/ddt-evil-via-link', body: 'x' },
    ],
    'archive-link',
  ],
  ['an absolute symlink', [{ name: 'abs', type: '2', link: '/etc' }], 'archive-link'],
  [
    'a write through an inside symlink',
    [
      { name: 'dir/', type: '5' },
      { name: 'inside', type: '2', link: 'dir' },
      { name: 'inside/x', body: 'x' },
    ],
    'archive-undeclared',
  ],
  [
    'a hard link to /etc/passwd',
    [{ name: 'passwd', type: '1', link: '/etc/passwd' }],
    'archive-link',
  ],
  ['a hard link out', [{ name: 'h', type: '1', link: '../../x' }], 'archive-link'],
  ['a device file', [{ name: 'dev', type: '3' }], 'archive-entry-type'],
];

describe('extracting hostile tarballs', () => {
  it.each(HOSTILE)('refuses %s, writing nothing outside', async (_name, entries, rule) => {
    const parent = mkdtempSync(join(tmpdir(), 'ddt-hostile-'));
    const dest = join(parent, 'a', 'b');
    mkdirSync(dest, { recursive: true });
    const id = 100 + HOSTILE.findIndex(([n]) => n === _name);
    serve(id, { 'ok.txt': 'ok' }, tar([{ name: 'ok.txt', body: 'ok' }, ...entries]));
    const error = await downloadArtifact(transport(), id, dest, { via: 'archive' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DebusineError);
    expect((error as DebusineError).details.rule).toBe(rule);
    expect((error as DebusineError).message).toMatch(/refused: member/);
    expect(readdirSync(parent)).toEqual(['a']);
    expect(readdirSync(join(parent, 'a'))).toEqual(['b']);
    for (const name of [
      'ddt-evil-abs',
      'ddt-evil-dotdot',
      'ddt-evil-nested',
      'ddt-evil-via-link',
    ]) {
      expect(existsSync(join('/tmp', name))).toBe(false);
    }
  });

  it('does not follow a symlink already in the destination', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'ddt-hostile-'));
    const dest = join(parent, 'dest');
    mkdirSync(dest);
    symlinkSync(parent, join(dest, 'up'));
    serve(150, { 'up/x': 'x' }, tar([{ name: 'up/x', body: 'x' }]));
    const error = await downloadArtifact(transport(), 150, dest, { via: 'archive' }).catch(
      (e: unknown) => e,
    );
    expect((error as DebusineError).details.rule).toBe('destination-link');
    expect(existsSync(join(parent, 'x'))).toBe(false);
  });

  it('refuses a truncated or corrupt archive with a clear error', async () => {
    const good = tar([{ name: 'ok.txt', body: 'ok' }]);
    serve(160, { 'ok.txt': 'ok' }, Buffer.from('this is not gzip at all'.repeat(40)));
    const error = await downloadArtifact(transport(), 160, mkdtempSync(join(tmpdir(), 'ddt-')), {
      via: 'archive',
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'bad-response' });
    serve(161, { 'ok.txt': 'ok' }, good.subarray(0, good.length - 30));
    const error2 = await downloadArtifact(transport(), 161, mkdtempSync(join(tmpdir(), 'ddt-')), {
      via: 'archive',
    }).catch((e: unknown) => e);
    expect(error2).toMatchObject({ code: 'bad-response' });
  });

  it('extracts an honest archive and checks it against the file list', async () => {
    const dest = mkdtempSync(join(tmpdir(), 'ddt-ok-'));
    serve(
      170,
      { 'a.txt': 'a', 'sub/b.txt': 'bb' },
      tar([
        { name: 'a.txt', body: 'a' },
        { name: 'sub/b.txt', body: 'bb' },
      ]),
    );
    await downloadArtifact(transport(), 170, dest, { via: 'archive' });
    expect(readdirSync(dest).sort()).toEqual(['a.txt', 'sub']);

    serve(171, { 'a.txt': 'a' }, tar([{ name: 'a.txt', body: 'A' }]));
    const error = await downloadArtifact(transport(), 171, mkdtempSync(join(tmpdir(), 'ddt-')), {
      via: 'archive',
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'bad-response', details: { rule: 'download-verify' } });
    expect((error as Error).message).toContain('hash mismatch');
  });
});

describe('downloading one file', () => {
  it('refuses a file whose size or hash differs, leaving nothing behind', async () => {
    routes.set('/api/1.0/artifact/200/', {
      body: artifactJson(200, { 'f.txt': 'expected' }),
      type: 'application/json',
    });
    routes.set('/debusine/System/artifact/200/download/f.txt', { body: 'tampered' });
    const dir = mkdtempSync(join(tmpdir(), 'ddt-file-'));
    const error = await downloadArtifactFile(transport(), 200, 'f.txt', join(dir, 'f.txt')).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'bad-response', details: { rule: 'download-verify' } });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names a missing file', async () => {
    const error = await downloadArtifactFile(transport(), 200, 'nope', '/tmp/nope').catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'not-found' });
  });
});
