import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect, it } from 'vitest';
import { downloadArtifact, downloadArtifactFile } from '../../src/main/artifacts/transfer/download';
import { UploadJobStore } from '../../src/main/artifacts/transfer/job-store';
import {
  createBinaryPackage,
  createBinaryPackages,
  createPackageBuildLog,
  createSourcePackageFromDsc,
  createUpload,
} from '../../src/main/artifacts/local/kinds-debian';
import type { LocalArtifact } from '../../src/main/artifacts/local/local-artifact';
import type { ProgressEvent } from '../../src/main/artifacts/transfer/progress';
import { uploadArtifact } from '../../src/main/artifacts/transfer/upload-engine';
import { DebusineError } from '../../src/shared/errors';
import { debianFixtures, missingDebianTools } from '../support/debian-fixtures';
import { describeOnEachServer } from '../support/on-each-server';

const skip = missingDebianTools();
if (skip) console.warn(`Skipping artifact round trips: ${skip}`);

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'ddt-roundtrip-'));
}

/** Every local file of the artifact is in `dir` under its path, byte for byte. */
function expectSameFiles(artifact: LocalArtifact, dir: string): void {
  const names = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
  expect(names).toEqual([...artifact.files.keys()].sort());
  for (const [path, local] of artifact.files) expect(sha256(join(dir, path))).toBe(sha256(local));
}

describeOnEachServer(
  'artifacts on the %s server',
  ({ server, client }) => {
    const fx = debianFixtures();

    it('uploads a source package and downloads it back byte-identical', async () => {
      const artifact = await createSourcePackageFromDsc(fx.dsc);
      const events: ProgressEvent[] = [];
      const store = new UploadJobStore(scratch());
      const result = await uploadArtifact(client, artifact, {
        onProgress: (e) => events.push(e),
        jobStore: store,
      });
      expect(result.workspace).toBe(server.workspaces.default);
      expect(result.uploaded).toEqual(['hello-ddt_1.0.dsc', 'hello-ddt_1.0.tar.xz']);
      expect(await store.list()).toEqual([]);
      const last = events.filter((e) => e.type === 'total').at(-1);
      expect(last).toMatchObject({ filesDone: 2, filesTotal: 2 });

      const viaArchive = scratch();
      const remote = await downloadArtifact(client, result.id, viaArchive, { via: 'archive' });
      expect(remote.category).toBe('debian:source-package');
      expect(remote.data).toMatchObject({ name: 'hello-ddt', version: '1.0' });
      expectSameFiles(artifact, viaArchive);

      const viaFiles = scratch();
      await downloadArtifact(client, result.id, viaFiles, { via: 'files' });
      expectSameFiles(artifact, viaFiles);

      const kept = scratch();
      await downloadArtifact(client, result.id, kept, { tarball: true });
      expect(readdirSync(kept)).toEqual([`artifact-${String(result.id)}.tar.gz`]);

      const single = join(scratch(), 'copy.dsc');
      await downloadArtifactFile(client, result.id, 'hello-ddt_1.0.dsc', single);
      expect(sha256(single)).toBe(sha256(fx.dsc));
      const again = await downloadArtifactFile(client, remote, 'hello-ddt_1.0.dsc', single).catch(
        (e: unknown) => e,
      );
      expect(again).toMatchObject({ code: 'conflict' });
    });

    it('uploads binary packages, one and several, and downloads them back', async () => {
      const one = await createBinaryPackage(fx.debs[0] ?? '');
      const r1 = await uploadArtifact(client, one);
      expect(r1.uploaded).toEqual([basename(fx.debs[0] ?? '')]);
      const d1 = scratch();
      await downloadArtifact(client, r1.id, d1);
      expectSameFiles(one, d1);

      const several = await createBinaryPackages({
        srcpkgName: 'hello-ddt',
        srcpkgVersion: '1.0',
        version: '1.0',
        architecture: 'all',
        files: fx.debs,
      });
      const r2 = await uploadArtifact(client, several, { concurrency: 2 });
      // The first .deb is already in the workspace: deduplicated, not sent again.
      expect(r2.uploaded).toEqual([basename(fx.debs[1] ?? '')]);
      expect(r2.present).toEqual([basename(fx.debs[0] ?? '')]);
      const d2 = scratch();
      await downloadArtifact(client, r2.id, d2, { via: 'archive' });
      expectSameFiles(several, d2);
    });

    it('uploads a .changes upload, sending only what the server lacks', async () => {
      const upload = await createUpload({ changesFile: fx.changes });
      const result = await uploadArtifact(client, upload);
      expect(result.uploaded).toEqual([basename(fx.buildinfo), basename(fx.changes)].sort());
      expect(result.present).toHaveLength(4);
      const dest = scratch();
      await downloadArtifact(client, result.id, dest);
      expectSameFiles(upload, dest);
    });

    it('accepts remote files the server has, and refuses those it lacks', async () => {
      const dir = scratch();
      const { copyFileSync, writeFileSync } = await import('node:fs');
      copyFileSync(fx.changes, join(dir, basename(fx.changes)));
      const upload = await createUpload({
        changesFile: join(dir, basename(fx.changes)),
        allowRemote: true,
      });
      expect(upload.remoteFiles.size).toBe(5);
      const ok = await uploadArtifact(client, upload);
      expect(ok.uploaded).toEqual([]);

      // A .changes listing a file no one uploaded.
      const text = readFileSync(fx.changes, 'utf8').replace(
        /^( [0-9a-f]{64}) (\d+) (hello-ddt_1\.0\.dsc)$/m,
        ` ${'0'.repeat(64)} $2 $3`,
      );
      const other = scratch();
      writeFileSync(join(other, basename(fx.changes)), text);
      const missing = await createUpload({
        changesFile: join(other, basename(fx.changes)),
        allowRemote: true,
      });
      const error = await uploadArtifact(client, missing).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DebusineError);
      expect((error as DebusineError).details.rule).toBe('upload.remote-file-on-server');
    });

    it('uploads a package build log', async () => {
      const log = await createPackageBuildLog({
        file: fx.buildLog,
        source: 'hello-ddt',
        version: '1.0',
        architecture: 'amd64',
      });
      const result = await uploadArtifact(client, log);
      const dest = scratch();
      const remote = await downloadArtifact(client, result.id, dest);
      expect(remote.data).toMatchObject({ source: 'hello-ddt', filename: basename(fx.buildLog) });
      expectSameFiles(log, dest);
    });
  },
  !skip,
);
