/**
 * dput-ng parity on real Debian packages: every upload of the corpus (archive packages in
 * each source format, built source-only as a new Debian revision without the orig, with
 * the orig, binary-only and full; see test/support/archive-corpus.ts) goes to the current
 * sandbox twice in one run, once by dput-ng in the sandbox's chroot (as alice, from a copy
 * of the build folder) and once by the app, given the .changes alone as `dput` is (the
 * desktop app finds the other files beside it). The two server states must be equal:
 * every artifact's category, data and files (name, size, SHA-256), and the relations,
 * normalised only for ids and times. Where dput-ng refuses, the app refuses the same upload
 * before sending anything.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARCHIVE_PACKAGES,
  archiveCorpus,
  BUILD_WAYS,
  missingCorpusTools,
  type CorpusUpload,
} from '../support/archive-corpus';
import { uploadThroughApp } from '../support/app-upload';
import { chownToAlice, dputAsAlice, uploadOnlyProfile, writeDputProfile } from '../support/dput-ng';
import { hasServer, testServer } from '../support/sandbox';
import { quiltPackage } from '../support/quilt-package';
import { uploadState } from '../support/server-state';
import { serviceBridge, type ServiceBridge } from '../support/service-bridge';

const server = hasServer('current') ? testServer('current') : undefined;
const developers = server?.developers ?? null;
const root = server?.root ?? '';
const canRun =
  developers !== null && existsSync(join(root, 'usr/bin/dput')) && !missingCorpusTools();

/** The corpus' uploads by name, known before anything is built (for the test names). */
const NAMES = [
  ...Object.entries(ARCHIVE_PACKAGES).flatMap(([name, pkg]) =>
    Object.keys(BUILD_WAYS)
      .filter((way) => !(way === 'source-with-orig' && pkg.format === '3.0 (native)'))
      .map((way) => `${name}/${way}`),
  ),
  'ddt-multi/full',
];

describe.runIf(canRun)('real Debian packages through the app and through dput-ng', () => {
  const workspace = developers?.workspace ?? '';
  const home = join(root, 'home/alice');
  let corpus: CorpusUpload[] = [];
  let s: ServiceBridge;
  let dir = '';

  beforeAll(async () => {
    // Fetched and built once per machine (minutes the first time), then taken from the cache.
    corpus = archiveCorpus();
    s = await serviceBridge({}, ['connection.state', 'upload.finished']);
    if (server) await s.signIn(server);
    dir = mkdtempSync(join(home, 'ddt-corpus-'));
    chownToAlice(root, `/${relative(root, dir)}`);
    writeDputProfile(root, 'ddt-corpus', uploadOnlyProfile(server?.scope ?? '', workspace));
  }, 1_200_000);

  afterAll(async () => {
    await s.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Copies a build folder into alice's home (less `leaveOut`) and runs dput-ng on it there. */
  function dputOf(upload: CorpusUpload, leaveOut: string[] = []): { id: number; output: string } {
    const copy = mkdtempSync(join(dir, `${upload.name.replace('/', '_')}-`));
    cpSync(upload.dir, copy, {
      recursive: true,
      filter: (source) => !leaveOut.includes(basename(source)),
    });
    chownToAlice(root, `/${relative(root, copy)}`);
    const inChroot = `/${relative(root, join(copy, basename(upload.changes)))}`;
    try {
      const output = dputAsAlice(root, 'ddt-corpus', inChroot);
      // dput-ng logs the artifact it made.
      return { id: Number(/\/artifact\/(\d+)\//.exec(output)?.[1] ?? NaN), output };
    } catch (error) {
      return { id: NaN, output: error instanceof Error ? error.message : String(error) };
    }
  }

  it.each(NAMES)('%s: the same artifacts, data, files and relations', async (name) => {
    const upload = corpus.find((u) => u.name === name);
    if (!upload) throw new Error(`the corpus has no ${name}`);
    const dput = dputOf(upload);
    expect(dput.id, dput.output).toBeGreaterThan(0);
    const job = await uploadThroughApp(s, [upload.changes], { workspace });
    const client = s.made.service.session.client();
    const app = await uploadState(client, job.artifactId ?? 0);
    const theirs = await uploadState(client, dput.id);
    // dput-ng relates the upload to each package it makes, both ways of relating.
    const packages = job.parts.length - 1;
    expect(theirs.relations.extends ?? []).toHaveLength(packages);
    expect(app).toEqual(theirs);
  });

  it('a new revision whose orig no server has seen: the app first, then dput-ng', async () => {
    // The archive's origs may be on the server from an earlier run, and a file the server
    // holds may be declared remote: an orig of random bytes shows what the app sends itself.
    const pkg = quiltPackage();
    const job = await uploadThroughApp(s, [pkg.changes], { workspace });
    const upload = {
      name: 'ddt-quilt/source-new-revision',
      format: '3.0 (quilt)',
      way: 'source-new-revision' as const,
      dir: pkg.dir,
      changes: pkg.changes,
    };
    const dput = dputOf(upload);
    expect(dput.id, dput.output).toBeGreaterThan(0);
    const client = s.made.service.session.client();
    const app = await uploadState(client, job.artifactId ?? 0);
    expect(app).toEqual(await uploadState(client, dput.id));
    const source = app.relations.extends?.[0];
    expect(Object.keys(source?.files ?? {}).sort()).toEqual(
      [pkg.dsc, pkg.orig, pkg.origAsc, pkg.debianTarball].map((f) => basename(f)).sort(),
    );
  });

  it('a new revision whose orig is not in the folder: both refuse it, and the app sends nothing', async () => {
    const upload = corpus.find((u) => u.name === 'hello/source-new-revision');
    if (!upload) throw new Error('the corpus has no hello/source-new-revision');
    const orig = ['hello_2.10.orig.tar.gz', 'hello_2.10.orig.tar.gz.asc'];
    const dput = dputOf(upload, orig);
    expect(dput.id, dput.output).toBeNaN();
    expect(dput.output).toContain('hello_2.10.orig.tar.gz');

    const bare = mkdtempSync(join(dir, 'bare-'));
    cpSync(upload.dir, bare, {
      recursive: true,
      filter: (source) => !orig.includes(basename(source)),
    });
    const staged = await s.made.files.add(join(bare, basename(upload.changes)));
    const [draft] = await s.api.localArtifacts.detect({ fileIds: [staged.id] });
    expect(draft?.ready).toBe(false);
    expect(draft?.problems.map((p) => p.file).sort()).toEqual([...orig].sort());
    expect(draft?.problems[0]?.message).toContain(`nor in ${bare}`);
    await expect(
      s.api.uploads.start({ draftId: draft?.draftId ?? '', workspace, startWorkflow: false }),
    ).rejects.toMatchObject({ code: 'validation' });
    expect(s.eventsOf('upload.finished').filter((j) => j.draftId === draft?.draftId)).toEqual([]);
  });
});
