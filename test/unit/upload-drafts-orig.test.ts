/**
 * The upload of a new Debian revision: its .changes does not list the orig tarball, its
 * .dsc does, and dput-ng uploads the orig (and its .asc) as files of the source package,
 * taken from the .dsc's folder. The draft takes them from the dropped files, else from the
 * folder beside the dropped .changes (the desktop app knows it; the browser host has only
 * what the folder chooser gave), and names a file found in neither, with where it looked.
 * Remote files are declared only when an artifact the app uploaded holds them, and the
 * server says so, before anything is created.
 */
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UploadedFiles } from '../../src/main/artifacts';
import { DraftStore } from '../../src/main/service/drafts';
import { StaticSessionProvider } from '../../src/main/service/session';
import { StagedFiles } from '../../src/main/service/staged-files';
import { UploadManager } from '../../src/main/service/uploads';
import type { UploadJob } from '../../src/shared/contract';
import type { ArtifactResponse } from '../../src/shared/models';
import { useCountingServer } from '../support/counting-server';
import { missingDebianTools } from '../support/debian-fixtures';
import { quiltPackage, type QuiltPackage } from '../support/quilt-package';

const skip = missingDebianTools();
const pkg: QuiltPackage | undefined = skip ? undefined : quiltPackage();

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Stages files as the desktop app does (the user's own paths) or as the browser host does. */
async function stage(
  paths: readonly string[],
  host: 'desktop' | 'browser',
): Promise<{ staged: StagedFiles; ids: string[] }> {
  const staged = new StagedFiles();
  const ids: string[] = [];
  // The browser host's copies sit under random names in its staging folder.
  const area = tmp('ddt-staging-');
  for (const path of paths) {
    if (host === 'desktop') {
      ids.push((await staged.add(path)).id);
    } else {
      const copy = join(area, `${String(ids.length)}.upload`);
      copyFileSync(path, copy);
      ids.push((await staged.add(copy, { name: basename(path), owned: true })).id);
    }
  }
  return { staged, ids };
}

function sourcePartFiles(drafts: DraftStore, draftId: string): string[] {
  const source = drafts.get(draftId).parts.find((p) => p.category === 'debian:source-package');
  return source ? source.paths() : [];
}

describe.skipIf(skip)('the upload of a new Debian revision', () => {
  const p = pkg as QuiltPackage;
  const origName = () => basename(p.orig);
  const ascName = () => basename(p.origAsc);
  const sourceFiles = () =>
    [p.dsc, p.orig, p.origAsc, p.debianTarball].map((f) => basename(f)).sort();

  it('the .changes alone, in the desktop app: the orig and .asc come from its folder', async () => {
    const { staged, ids } = await stage([p.changes], 'desktop');
    const drafts = new DraftStore(tmp('ddt-data-'), staged);
    const draft = await drafts.create(ids, false);
    expect(draft.problems).toEqual([]);
    expect(draft.ready).toBe(true);
    expect(draft.parts.map((x) => x.category)).toEqual(['debian:upload', 'debian:source-package']);
    expect(sourcePartFiles(drafts, draft.draftId)).toEqual(sourceFiles());
    expect(draft.beside.map((b) => b.name).sort()).toEqual(
      [basename(p.dsc), basename(p.debianTarball), origName(), ascName()].sort(),
    );
    expect(new Set(draft.beside.map((b) => b.folder))).toEqual(new Set([p.dir]));
    const orig = draft.beside.find((b) => b.name === origName());
    expect(orig?.size).toBe(readFileSync(p.orig).length);
  });

  it('the folder chosen in the browser host: the orig is taken, not left out', async () => {
    const files = [p.changes, p.dsc, p.orig, p.origAsc, p.debianTarball];
    const { staged, ids } = await stage(files, 'browser');
    const drafts = new DraftStore(tmp('ddt-data-'), staged);
    const draft = await drafts.create(ids, false);
    expect(draft.problems).toEqual([]);
    expect(draft.ready).toBe(true);
    expect(draft.excludedFileIds).toEqual([]);
    expect(draft.files.map((f) => f.pathInArtifact).sort()).toEqual(
      files.map((f) => basename(f)).sort(),
    );
    expect(draft.beside).toEqual([]);
    expect(sourcePartFiles(drafts, draft.draftId)).toEqual(sourceFiles());
  });

  it('names a file found nowhere, with where it looked, and is not ready', async () => {
    const browser = await stage([p.changes, p.dsc, p.debianTarball], 'browser');
    const inBrowser = await new DraftStore(tmp('ddt-data-'), browser.staged).create(
      browser.ids,
      false,
    );
    expect(inBrowser.ready).toBe(false);
    expect(inBrowser.problems.map((x) => [x.file, x.rule]).sort()).toEqual(
      [
        [origName(), 'missing-file'],
        [ascName(), 'missing-file'],
      ].sort(),
    );
    const said = inBrowser.problems.find((x) => x.file === origName())?.message ?? '';
    expect(said).toContain(`listed in ${basename(p.dsc)}`);
    expect(said).toContain('choose the folder that holds it');

    // The desktop app, the .changes in a folder without the orig: it names that folder.
    const bare = tmp('ddt-bare-');
    for (const file of [p.changes, p.dsc, p.debianTarball]) {
      copyFileSync(file, join(bare, basename(file)));
    }
    const desktop = await stage([join(bare, basename(p.changes))], 'desktop');
    const inDesktop = await new DraftStore(tmp('ddt-data-'), desktop.staged).create(
      desktop.ids,
      false,
    );
    expect(inDesktop.ready).toBe(false);
    expect(inDesktop.problems.find((x) => x.file === origName())?.message).toContain(
      `nor in ${bare}`,
    );
  });

  describe('with allow_remote', () => {
    const server = useCountingServer();

    it('declares the orig remote, but an upload starts only when the server is known to hold it', async () => {
      const { staged, ids } = await stage([p.changes, p.dsc, p.debianTarball], 'browser');
      const data = tmp('ddt-data-');
      const drafts = new DraftStore(data, staged);
      const draft = await drafts.create(ids, true);
      expect(draft.problems).toEqual([]);
      expect(draft.ready).toBe(true);
      const source = drafts.get(draft.draftId).parts[1];
      expect([...(source?.remoteFiles.keys() ?? [])].sort()).toEqual(
        [origName(), ascName()].sort(),
      );

      const uploadedFiles = new UploadedFiles(data);
      const uploads = new UploadManager({
        dir: join(data, 'uploads'),
        session: new StaticSessionProvider({ apiUrl: server().transport.apiUrl, token: 't' }),
        drafts,
        emit: () => undefined,
        uploadedFiles,
      });
      // Nothing this app uploaded holds the orig: refused, and nothing was asked of the server.
      await expect(
        uploads.start({
          draftId: draft.draftId,
          workspace: 'developers',
          workRequest: null,
          expireAt: null,
        }),
      ).rejects.toMatchObject({
        details: { rule: 'upload.remote-file-unknown' },
        message: expect.stringContaining(origName()) as unknown,
      });
      expect(server().requests).toEqual([]);
      await uploads.close();
    });

    it('a remote file the server turns out not to hold: the job fails for good, Retry sends nothing, and the row says what is left', async () => {
      const { staged, ids } = await stage([p.changes, p.dsc, p.debianTarball], 'browser');
      const data = tmp('ddt-data-');
      const drafts = new DraftStore(data, staged);
      const draft = await drafts.create(ids, true);
      // The check before the creation passed (the server held it then); it has gone since.
      const stale = {
        confirm: () => Promise.resolve(),
        record: () => Promise.resolve(),
      } as unknown as UploadedFiles;
      const events: UploadJob[] = [];
      const uploads = new UploadManager({
        dir: join(data, 'uploads'),
        session: new StaticSessionProvider({ apiUrl: server().transport.apiUrl, token: 't' }),
        drafts,
        emit: (event, payload) => {
          if (event === 'upload.finished') events.push(payload as UploadJob);
        },
        uploadedFiles: stale,
      });
      server().filesToUpload = [origName()];
      const job = await uploads.start({
        draftId: draft.draftId,
        workspace: 'developers',
        workRequest: null,
        expireAt: null,
      });
      await expect.poll(() => events.length).toBe(1);
      const failed = events[0];
      expect(failed?.state).toBe('failed');
      expect(failed?.retryable).toBe(false);
      expect(failed?.error?.message).toContain(origName());
      // The upload was created once and recorded: its id and what it waits for are shown.
      expect(failed?.parts[0]).toMatchObject({ artifactId: 1, missing: [origName()] });
      const sent = [...server().requests];
      expect(sent.filter((r) => r.startsWith('POST '))).toHaveLength(1);
      const handlers = uploads.handlers();
      await expect(
        handlers['uploads.retry']({ jobId: job.jobId }, undefined as never),
      ).rejects.toMatchObject({ code: 'conflict', details: { rule: 'upload.not-retryable' } });
      expect(server().requests).toEqual(sent);
      // After a restart too: the record says the failure is final.
      const again = new UploadManager({
        dir: join(data, 'uploads'),
        session: new StaticSessionProvider({ apiUrl: server().transport.apiUrl, token: 't' }),
        drafts,
        emit: () => undefined,
      });
      await again.resumeAtStartup();
      const [listed] = await again.handlers()['uploads.list']({}, undefined as never);
      expect(listed).toMatchObject({ state: 'failed', retryable: false });
      await uploads.close();
      await again.close();
    });

    it('confirms a remembered file with the server: same workspace, checksum and size, complete', async () => {
      const index = new UploadedFiles(tmp('ddt-data-'));
      const sha256 = 'a'.repeat(64);
      await index.record('srv', 'developers', 7, [{ sha256, size: 10 }]);
      const artifact = (over: Partial<ArtifactResponse>): ArtifactResponse =>
        ({
          id: 7,
          workspace: 'developers',
          category: 'debian:source-package',
          created_at: '2026-11-28T00:00:00Z',
          data: {},
          download_tar_gz_url: '',
          files_to_upload: [],
          expire_at: null,
          files: {
            'x.orig.tar.gz': {
              size: 10,
              checksums: { sha256 },
              type: 'file',
              url: '',
              links: {},
            },
          },
          links: {},
          ...over,
        }) as ArtifactResponse;
      const wanted = [{ path: 'x.orig.tar.gz', size: 10, sha256 }];
      await expect(
        index.confirm('srv', 'developers', wanted, () => Promise.resolve(artifact({}))),
      ).resolves.toBeUndefined();
      for (const lie of [
        artifact({ workspace: 'elsewhere' }),
        artifact({ files_to_upload: ['x.orig.tar.gz'] }),
        artifact({ files: {} }),
      ]) {
        await expect(
          index.confirm('srv', 'developers', wanted, () => Promise.resolve(lie)),
        ).rejects.toMatchObject({ details: { rule: 'upload.remote-file-unknown' } });
      }
      // Another server's or workspace's record is not asked about at all.
      let asked = 0;
      const count = () => {
        asked += 1;
        return Promise.resolve(artifact({}));
      };
      await expect(index.confirm('other', 'developers', wanted, count)).rejects.toBeDefined();
      await expect(index.confirm('srv', 'elsewhere', wanted, count)).rejects.toBeDefined();
      expect(asked).toBe(0);
    });
  });
});
