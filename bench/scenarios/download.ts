/**
 * Downloads of one artifact (many files of a few MiB, under the 100 MiB/20 MiB limits
 * where the app fetches the server's tarball rather than file by file): as the tarball,
 * and extracted.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  LocalArtifact,
  downloadArtifact,
  getArtifact,
  uploadArtifact,
} from '../../src/main/artifacts';
import { cliDownload, curlDownload, curlDownloadExtract } from '../lib/baselines';
import { BENCH_CATEGORY } from '../lib/server';
import type { BenchContext } from '../lib/context';
import { cleanData, dataDir, writeRandomFile } from '../lib/data';
import { inChroot } from './upload';

export async function download(ctx: BenchContext): Promise<void> {
  const { downloadFiles, downloadFileSize } = ctx.sizes;
  const total = downloadFiles * downloadFileSize;
  const label = `${String(downloadFiles)} × ${String(downloadFileSize / 2 ** 20)} MiB`;
  const dir = dataDir(ctx.server.root).host;
  try {
    const artifact = new LocalArtifact(BENCH_CATEGORY);
    for (let i = 0; i < downloadFiles; i++) {
      const path = join(dir, 'source', `file-${String(i).padStart(3, '0')}.bin`);
      mkdirSync(join(dir, 'source'), { recursive: true });
      await writeRandomFile(path, downloadFileSize);
      await artifact.addLocalFile(path);
    }
    const { id } = await uploadArtifact(ctx.client, artifact, { workspace: ctx.server.workspace });
    const remote = await getArtifact(ctx.client, id);
    const tarUrl = new URL(remote.download_tar_gz_url, ctx.server.webUrl).toString();
    const out = join(dir, 'out');
    const fresh = (): Promise<string> => {
      rmSync(out, { recursive: true, force: true });
      mkdirSync(out, { recursive: true });
      return Promise.resolve(out);
    };
    const expectFiles = (n: number): void => {
      const got = readdirSync(out, { recursive: true }).length;
      if (got < n) throw new Error(`expected ${String(n)} entries in ${out}, found ${String(got)}`);
    };

    // A subject's run fetches into a fresh folder; `files` entries must be there afterwards.
    const measureInto =
      (scenario: string, files?: number) =>
      (subject: string, fetch: (target: string) => unknown, note?: string) =>
        ctx.measure(
          scenario,
          subject,
          fresh,
          async (target) => {
            await fetch(target);
            if (files !== undefined) expectFiles(files);
          },
          { bytes: total, note },
        );

    const asTarball = `download artifact as tarball (${label})`;
    const tarball = measureInto(asTarball, 1);
    await tarball('app', (target) => downloadArtifact(ctx.client, id, target, { tarball: true }));
    await tarball('Debusine CLI', (target) => {
      cliDownload(ctx.server, id, inChroot(ctx, target), true);
    });
    // curl's tarball is not looked into: a file was written or curl failed.
    const tarballByCurl = measureInto(asTarball);
    await tarballByCurl('curl', (target) =>
      curlDownload(ctx.server, tarUrl, join(target, 'a.tar.gz')),
    );

    const extracted = measureInto(`download artifact extracted (${label})`, downloadFiles);
    await extracted(
      'app',
      (target) => downloadArtifact(ctx.client, id, target),
      'tarball streamed, unpacked, sizes and SHA-256 checked',
    );
    await extracted('Debusine CLI', (target) => {
      cliDownload(ctx.server, id, inChroot(ctx, target), false);
    });
    await extracted(
      'curl | tar',
      (target) => curlDownloadExtract(ctx.server, tarUrl, target),
      'no checks',
    );
  } finally {
    cleanData(ctx.server.root);
  }
}
