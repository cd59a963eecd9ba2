/**
 * The ground a hostile-download test stands on: a scratch tree with the destination, its
 * parent, an `outside` folder a hostile server would like to write to, and a check that a
 * refused download left every one of them exactly as it was.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { downloadArtifact } from '../../src/main/artifacts/transfer/download';
import { DebusineError } from '../../src/shared/errors';
import {
  startFakeDebusine,
  type FakeDebusine,
  type FakeFile,
  type Responder,
  type ServedResponse,
} from './fake-debusine';
import { tarGz, type TarEntry } from './tar-build';
import { snapshotTree } from './tree-snapshot';

export interface Playground {
  /** Holds everything below; snapshots are taken of it. */
  root: string;
  /** The destination's parent. */
  parent: string;
  /** Where the download is asked to go (exists, empty unless a test puts something there). */
  dest: string;
  /** A folder next to the destination, with one file, that must never change. */
  outside: string;
}

export function playground(): Playground {
  const root = mkdtempSync(join(tmpdir(), 'ddt-hostile-'));
  const parent = join(root, 'parent');
  const dest = join(parent, 'dest');
  const outside = join(parent, 'outside');
  mkdirSync(dest, { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'keep.txt'), 'keep');
  writeFileSync(join(parent, 'sibling.txt'), 'sibling');
  return { root, parent, dest, outside };
}

export interface Refusal {
  code?: string;
  rule?: string;
  message?: RegExp;
}

/**
 * Runs a download that must be refused, and checks that the destination, its parent and
 * everything next to them are, recursively, exactly as they were: same entries, types,
 * sizes, link targets and contents, and no staging folder left behind.
 */
export async function expectRefused(
  ground: Playground,
  run: () => Promise<unknown>,
  refusal: Refusal,
): Promise<DebusineError> {
  const before = snapshotTree(ground.root);
  const error = await run().then(
    () => new Error('the download was not refused'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DebusineError);
  const refused = error as DebusineError;
  if (refusal.code) expect(refused.code, refused.message).toBe(refusal.code);
  if (refusal.rule) expect(refused.details.rule, refused.message).toBe(refusal.rule);
  if (refusal.message) expect(refused.message).toMatch(refusal.message);
  expect(snapshotTree(ground.root)).toEqual(before);
  return refused;
}

export interface HostileServer {
  /** The running fake (only inside tests and hooks). */
  readonly fake: FakeDebusine;
  /** A fresh artifact id, for a test that serves an artifact itself. */
  nextId: () => number;
  /**
   * Serves an artifact with these files under a fresh id, its tarball made of `tarball`'s
   * entries, served by a responder, or given as bytes; by default one holding the files.
   */
  artifact: (files: FakeFile[], tarball?: TarEntry[] | Responder | Buffer) => number;
  /** The responses to requests for the artifact's files and tarball. */
  downloadsOf: (id: number, what?: 'download/' | 'download/?archive') => ServedResponse[];
  /** Downloads the whole artifact into `dest`: file by file, unpacked, or as the tarball. */
  download: (id: number, dest: string, mode: DownloadMode) => Promise<unknown>;
}

export type DownloadMode = 'files' | 'archive' | 'tarball';

/** A fake Debusine for the test file: started before its tests, closed after them. */
export function hostileServer(): HostileServer {
  let running: FakeDebusine | undefined;
  let nextId = 1;
  beforeAll(async () => {
    running = await startFakeDebusine();
  });
  afterAll(async () => {
    await running?.close();
  });
  const server: HostileServer = {
    get fake() {
      if (!running) throw new Error('the fake Debusine runs only during the tests');
      return running;
    },
    nextId: () => nextId++,
    artifact: (files: FakeFile[], tarball?: TarEntry[] | Responder | Buffer) => {
      const id = nextId++;
      const entries = files.map((f) => ({ name: f.path, body: f.content ?? '' }));
      const served = Array.isArray(tarball) ? tarGz(tarball) : (tarball ?? tarGz(entries));
      server.fake.artifact(id, files, { tarball: served });
      return id;
    },
    downloadsOf: (id: number, what: 'download/' | 'download/?archive' = 'download/') =>
      server.fake.servedUnder(`/debusine/System/artifact/${String(id)}/${what}`),
    download: (id: number, dest: string, mode: DownloadMode) =>
      downloadArtifact(
        server.fake.transport(),
        id,
        dest,
        mode === 'tarball' ? { tarball: true } : { via: mode },
      ),
  };
  return server;
}
