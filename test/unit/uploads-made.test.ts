/**
 * The record of the uploads the app made, which signing compares with: what a completed
 * job of a .changes contained (its parts' files, an orig tarball left on the server
 * included), per server, bounded by count, and robust to a damaged file.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadJob } from '../../src/main/artifacts/transfer/job-store';
import { uploadMadeOf } from '../../src/main/service/uploads';
import { serverKey, UploadsMade, type UploadMade } from '../../src/main/signing/uploads-made';

const sha = (c: string) => c.repeat(64);

function job(): UploadJob {
  const file = (s: string, size: number) => ({
    size,
    checksums: { sha256: s },
    type: 'file' as const,
  });
  return {
    version: 2,
    id: 'job-1',
    apiUrl: 'https://debusine.example/api',
    scope: 'debian',
    workspace: 'developers',
    createdAt: '2026-11-20T10:00:00Z',
    parts: [
      {
        category: 'debian:upload',
        label: 'hello_2.10-4_source.changes',
        request: {
          category: 'debian:upload',
          workspace: 'developers',
          work_request: null,
          expire_at: null,
          files: {
            'hello_2.10-4_source.changes': file(sha('a'), 10),
            'hello_2.10-4.dsc': file(sha('b'), 20),
            'hello_2.10-4.debian.tar.xz': file(sha('c'), 30),
          },
          data: {
            type: 'dpkg',
            changes_fields: { Source: 'hello', Version: '2.10-4', Distribution: 'unstable' },
          },
        },
        artifactId: 300,
        files: {},
        done: [],
        begun: [],
        missing: [],
      },
      {
        category: 'debian:source-package',
        label: 'hello_2.10-4.dsc',
        request: {
          category: 'debian:source-package',
          workspace: 'developers',
          work_request: null,
          expire_at: null,
          files: {
            'hello_2.10-4.dsc': file(sha('b'), 20),
            'hello_2.10-4.debian.tar.xz': file(sha('c'), 30),
            // The orig tarball the .changes does not list: on the server already.
            'hello_2.10.orig.tar.gz': file(sha('d'), 40),
          },
          data: { name: 'hello', version: '2.10-4', type: 'dpkg', dsc_fields: {} },
        },
        artifactId: 301,
        files: {},
        done: [],
        begun: [],
        missing: [],
      },
    ],
    relate: true,
    related: [1],
    workflow: null,
    workflowId: 40,
    state: 'uploading',
    error: null,
    final: false,
  };
}

describe('the uploads the app made', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'uploads-made-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("records a .changes job's source, version, Distribution and every file of every part", () => {
    const server = serverKey('https://debusine.example/api', 'debian');
    expect(uploadMadeOf(job(), server, '2026-11-20T10:05:00Z')).toEqual({
      server,
      workspace: 'developers',
      madeAt: '2026-11-20T10:05:00Z',
      artifactId: 300,
      workflowId: 40,
      source: 'hello',
      version: '2.10-4',
      distribution: 'unstable',
      files: {
        'hello_2.10-4_source.changes': sha('a'),
        'hello_2.10-4.dsc': sha('b'),
        'hello_2.10-4.debian.tar.xz': sha('c'),
        'hello_2.10.orig.tar.gz': sha('d'),
      },
    });
  });

  it('records nothing for a job that made no Debian upload, or before its artifact exists', () => {
    const single = job();
    single.parts = single.parts.slice(1);
    expect(uploadMadeOf(single, 's', 'now')).toBeNull();
    const unmade = job();
    const [first] = unmade.parts;
    if (first) first.artifactId = null;
    expect(uploadMadeOf(unmade, 's', 'now')).toBeNull();
  });

  it('keeps each server apart, the newest first, bounded by count', async () => {
    const store = new UploadsMade(dir, 3);
    const made = (server: string, artifactId: number, version: string): UploadMade => ({
      server,
      workspace: 'developers',
      madeAt: '2026-11-20T10:00:00Z',
      artifactId,
      workflowId: null,
      source: 'hello',
      version,
      distribution: 'unstable',
      files: { 'hello.dsc': sha('b') },
    });
    await store.record(made('A', 1, '1'));
    await store.record(made('B', 2, '2'));
    await store.record(made('A', 3, '3'));
    expect((await store.ofSource('A', 'hello')).map((u) => u.artifactId)).toEqual([3, 1]);
    expect(await store.ofSource('A', 'other')).toEqual([]);
    expect((await store.ofSource('B', 'hello')).map((u) => u.artifactId)).toEqual([2]);
    await store.record(made('A', 4, '4'));
    // Over the bound, the oldest goes.
    expect((await store.ofSource('A', 'hello')).map((u) => u.artifactId)).toEqual([4, 3]);
    // Only the user may read it: it names their packages and servers.
    const { mode } = await import('node:fs/promises').then((fs) =>
      fs.stat(join(dir, 'uploads-made.json')),
    );
    expect(mode & 0o777).toBe(0o600);
  });

  it('loses only a damaged entry, and nothing when the file is not JSON', async () => {
    const store = new UploadsMade(dir);
    const file = join(dir, 'uploads-made.json');
    await writeFile(file, 'not json');
    expect(await store.ofSource('A', 'hello')).toEqual([]);
    const good = {
      server: 'A',
      workspace: 'w',
      madeAt: 'x',
      artifactId: 1,
      workflowId: null,
      source: 'hello',
      version: '1',
      distribution: 'unstable',
      files: { 'a.dsc': sha('b') },
    };
    await writeFile(file, JSON.stringify({ uploads: [{ ...good, files: { x: 'nope' } }, good] }));
    expect(await store.ofSource('A', 'hello')).toEqual([good]);
    JSON.parse(await readFile(file, 'utf8'));
  });
});
