/**
 * A draft made from dropped files lists the local checks' problems one per wrong file,
 * each naming its file, which is how the upload screen puts it on that file's row
 * (test/unit/renderer/draft-rows.test.ts checks that side with the same shapes); and an
 * upload started from a draft whose file changed since is refused before any request.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DputPlanner } from '../../src/main/dput/plan';
import { DraftStore } from '../../src/main/service/drafts';
import { StaticSessionProvider } from '../../src/main/service/session';
import { StagedFiles } from '../../src/main/service/staged-files';
import { UploadManager } from '../../src/main/service/uploads';
import { useCountingServer } from '../support/counting-server';
import { debianFixtures, missingDebianTools } from '../support/debian-fixtures';

const skip = missingDebianTools();
// Built while collecting, as in artifacts-kinds.test.ts: a few seconds, not a test's time.
if (!skip) debianFixtures();

describe.skipIf(skip)('problems of dropped files on the upload screen', () => {
  it('puts each wrong file’s problem on its own row, and the draft is not ready', async () => {
    const fx = debianFixtures();
    const dir = mkdtempSync(join(tmpdir(), 'ddt-draft-'));
    const paths = [fx.changes, fx.dsc, fx.sourceTarball, fx.buildinfo, ...fx.debs].map((file) => {
      const copy = join(dir, basename(file));
      copyFileSync(file, copy);
      return copy;
    });
    const tarball = join(dir, basename(fx.sourceTarball));
    const deb = join(dir, basename(fx.debs[0] ?? ''));
    // The tarball one byte short; one byte of the package (inside a member) changed.
    const short = readFileSync(tarball);
    writeFileSync(tarball, short.subarray(0, short.length - 1));
    const changed = readFileSync(deb);
    changed[changed.length >> 1] = (changed[changed.length >> 1] ?? 0) ^ 0xff;
    writeFileSync(deb, changed);
    const staged = new StagedFiles();
    const files = [];
    for (const path of paths) files.push(await staged.add(path));
    const drafts = new DraftStore(mkdtempSync(join(tmpdir(), 'ddt-data-')), staged);
    const draft = await drafts.create(
      files.map((f) => f.id),
      false,
    );
    expect(draft.ready).toBe(false);
    expect(draft.problems.map((p) => [p.file, p.rule]).sort()).toEqual(
      [
        [basename(deb), 'listed-file.checksum'],
        [basename(tarball), 'listed-file.size'],
      ].sort(),
    );
    const message = (name: string) => draft.problems.find((p) => p.file === name)?.message;
    expect(message(basename(tarball))).toContain(`${basename(fx.changes)} line`);
    expect(message(basename(tarball))).toContain(`${basename(tarball)} is`);
    expect(message(basename(deb))).toContain(`${basename(deb)} has sha256`);
  });
});

/** The fixtures' whole .changes set, staged as if dropped on the window. */
async function stagedChangesSet() {
  const fx = debianFixtures();
  const staged = new StagedFiles();
  const files = [];
  for (const file of [fx.changes, fx.dsc, fx.sourceTarball, fx.buildinfo, ...fx.debs]) {
    files.push(await staged.add(file));
  }
  return { fx, staged, files };
}

describe.skipIf(skip)('an upload started from a draft', () => {
  const server = useCountingServer();

  it('is refused without a single request when a file changed after the draft was made', async () => {
    const fx = debianFixtures();
    const dir = mkdtempSync(join(tmpdir(), 'ddt-draft-'));
    const staged = new StagedFiles();
    const files = [];
    for (const file of [fx.dsc, fx.sourceTarball]) {
      const copy = join(dir, basename(file));
      copyFileSync(file, copy);
      files.push(await staged.add(copy));
    }
    const data = mkdtempSync(join(tmpdir(), 'ddt-data-'));
    const drafts = new DraftStore(data, staged);
    const draft = await drafts.create(
      files.map((f) => f.id),
      false,
    );
    expect(draft.ready).toBe(true);
    // Changed in place (the draft's link is the same file), same size.
    const tarball = join(dir, basename(fx.sourceTarball));
    const bytes = readFileSync(tarball);
    bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0xff;
    writeFileSync(tarball, bytes);
    const uploads = new UploadManager({
      dir: join(data, 'uploads'),
      session: new StaticSessionProvider({ apiUrl: server().transport.apiUrl, token: 't' }),
      drafts,
      emit: () => undefined,
    });
    await expect(
      uploads.start({ draftId: draft.draftId, workspace: null, workRequest: null, expireAt: null }),
    ).rejects.toMatchObject({ details: { rule: 'listed-file.checksum' } });
    expect(server().requests).toEqual([]);
    await uploads.close();
  });

  it('is refused without a single request when dput would refuse it: no workflow for its Distribution', async () => {
    const { staged, files } = await stagedChangesSet();
    const data = mkdtempSync(join(tmpdir(), 'ddt-data-'));
    const dput = mkdtempSync(join(tmpdir(), 'ddt-dput-'));
    mkdirSync(join(dput, 'profiles'));
    const host = new URL(server().transport.apiUrl).hostname;
    // A profile with a workflow for experimental only: the fixture says unstable.
    writeFileSync(
      join(dput, 'profiles', 'p.json'),
      JSON.stringify({
        method: 'debusine',
        fqdn: host,
        debusine_workspace: 'developers',
        debusine_workflows_by_distribution: { experimental: 'upload-to-experimental' },
      }),
    );
    const session = new StaticSessionProvider({ apiUrl: server().transport.apiUrl, token: 't' });
    const drafts = new DraftStore(
      data,
      staged,
      new DputPlanner({ session, dataDir: data, dirs: [dput] }),
    );
    const draft = await drafts.create(
      files.map((f) => f.id),
      false,
    );
    expect(draft.ready).toBe(true);
    expect(draft.workflow?.problem).toContain('"unstable"');
    const uploads = new UploadManager({
      dir: join(data, 'uploads'),
      session,
      drafts,
      emit: () => undefined,
    });
    await expect(
      uploads.start({
        draftId: draft.draftId,
        workspace: null,
        workRequest: null,
        expireAt: null,
        startWorkflow: true,
      }),
    ).rejects.toMatchObject({ details: { rule: 'dput.workflow' } });
    expect(server().requests).toEqual([]);
    await uploads.close();
  });

  it('publishes only to a suite its draft offers, in that suite’s repository', async () => {
    const { fx, staged, files } = await stagedChangesSet();
    const data = mkdtempSync(join(tmpdir(), 'ddt-data-'));
    const session = new StaticSessionProvider({ apiUrl: server().transport.apiUrl, token: 't' });
    const offered = { workspace: 'developers-alice-ppa', suite: 'sid', template: 'publish-to-sid' };
    // No dput-ng profile for this server: the user's suites are offered all the same.
    const planner = new DputPlanner({
      session,
      dataDir: data,
      dirs: [mkdtempSync(join(tmpdir(), 'ddt-dput-'))],
      targets: { list: () => Promise.resolve([offered]), version: () => 0 },
    });
    const drafts = new DraftStore(data, staged, planner);
    const draft = await drafts.create(
      files.map((f) => f.id),
      false,
    );
    expect(draft.workflow?.targets).toEqual([offered]);
    expect(draft.workflow?.problem).toBe('No dput-ng profile is for this server');
    const uploads = new UploadManager({
      dir: join(data, 'uploads'),
      session,
      drafts,
      emit: () => undefined,
    });
    const base = { draftId: draft.draftId, workRequest: null, expireAt: null };
    // A suite of another workspace than the one offered, and a workspace other than its own.
    await expect(
      uploads.start({
        ...base,
        workspace: null,
        publishTo: { workspace: 'developers', suite: 'sid' },
      }),
    ).rejects.toMatchObject({ details: { rule: 'dput.target' } });
    await expect(
      uploads.start({
        ...base,
        workspace: 'developers',
        publishTo: { workspace: offered.workspace, suite: 'sid' },
      }),
    ).rejects.toMatchObject({ details: { rule: 'dput.workspace' } });
    expect(server().requests).toEqual([]);

    const job = await uploads.start({
      ...base,
      workspace: null,
      publishTo: { workspace: offered.workspace, suite: 'sid' },
    });
    expect(job.workspace).toBe(offered.workspace);
    expect(job.workflow).toEqual({
      template: 'publish-to-sid',
      workspace: offered.workspace,
      distribution: 'unstable',
      workRequestId: null,
      suite: 'sid',
    });
    const stored = await uploads.store.list();
    expect(stored[0]?.workflow?.publish).toEqual({
      suite: 'sid',
      source: fx.source,
      version: fx.version,
    });
    await uploads.close();
  });
});
