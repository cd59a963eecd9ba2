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

    const tarball = `download artifact as tarball (${label})`;
    await ctx.measure(
      tarball,
      'app',
      fresh,
      async (target) => {
        await downloadArtifact(ctx.client, id, target, { tarball: true });
        expectFiles(1);
      },
      { bytes: total },
    );
    await ctx.measure(
      tarball,
      'Debusine CLI',
      fresh,
      (target) => {
        cliDownload(ctx.server, id, inChroot(ctx, target), true);
        expectFiles(1);
      },
      { bytes: total },
    );
    await ctx.measure(
      tarball,
      'curl',
      fresh,
      async (target) => {
        await curlDownload(ctx.server, tarUrl, join(target, 'a.tar.gz'));
      },
      { bytes: total },
    );

    const extracted = `download artifact extracted (${label})`;
    await ctx.measure(
      extracted,
      'app',
      fresh,
      async (target) => {
        await downloadArtifact(ctx.client, id, target);
        expectFiles(downloadFiles);
      },
      { bytes: total, note: 'tarball streamed, unpacked, sizes and SHA-256 checked' },
    );
    await ctx.measure(
      extracted,
      'Debusine CLI',
      fresh,
      (target) => {
        cliDownload(ctx.server, id, inChroot(ctx, target), false);
        expectFiles(downloadFiles);
      },
      { bytes: total },
    );
    await ctx.measure(
      extracted,
      'curl | tar',
      fresh,
      async (target) => {
        await curlDownloadExtract(ctx.server, tarUrl, target);
        expectFiles(downloadFiles);
      },
      { bytes: total, note: 'no checks' },
    );
  } finally {
    cleanData(ctx.server.root);
  }
}
