/**
 * Uploads: one big file, many small files, a realistic source package. Each run sends new
 * content (the server deduplicates by SHA-256 per workspace). Every subject's time covers
 * the whole job: hashing, creating the artifact, sending the bytes. The app's is the path
 * of its Upload screen (app-upload.ts): drop, check, `uploads.start`, the job's end.
 */
import { relative, join } from 'node:path';
import { kindOfCategory } from '../../src/main/artifacts';
import type { ServiceBridge } from '../../test/support/service-bridge';
import { appService as serviceFor, uploadThroughApp } from '../../test/support/app-upload';
import {
  cliImportDsc,
  cliUpload,
  curlUpload,
  curlUploadAsDput,
  dputArtifactsOf,
  importedSourcePackageOf,
  dputUpload,
  type PreparedArtifact,
} from '../lib/baselines';
import { BENCH_CATEGORY } from '../lib/server';
import type { BenchContext } from '../lib/context';
import { cleanData, dataDir, makeUnique, writeRandomFile } from '../lib/data';
import {
  makeChangesUpload,
  makeSourcePackage,
  type ChangesUpload,
  type SourcePackage,
} from '../lib/source-package';
import { MAX_CHUNK } from '../../src/main/artifacts/transfer/upload-file';

function mib(bytes: number): string {
  return bytes >= 2 ** 20
    ? `${String(Math.round(bytes / 2 ** 20))} MiB`
    : `${String(Math.round(bytes / 1000))} kB`;
}

/** The path the Debusine CLI sees in the chroot. */
export function inChroot(ctx: BenchContext, hostPath: string): string {
  return '/' + relative(ctx.server.root, hostPath);
}

const BENCH_KIND = kindOfCategory(BENCH_CATEGORY) ?? '';

/** The app's service, signed in to the bench's server as its owner. */
function appService(ctx: BenchContext): Promise<ServiceBridge> {
  const { server } = ctx;
  return serviceFor({
    apiUrl: server.apiUrl,
    scope: server.scope,
    workspaces: { default: server.workspace },
    users: { owner: { token: server.token } },
  });
}

async function appUpload(
  ctx: BenchContext,
  s: ServiceBridge,
  files: Record<string, string> | string[],
  expectUploaded: number,
  kind?: string,
): Promise<void> {
  const job = await uploadThroughApp(s, files, {
    workspace: ctx.server.workspace,
    ...(kind === undefined ? {} : { kind }),
  });
  const sent = job.files.filter((f) => f.state === 'done').length;
  if (sent !== expectUploaded) {
    throw new Error(
      `the app uploaded ${String(sent)} of ${String(expectUploaded)} files (deduplicated: data not unique)`,
    );
  }
}

/**
 * app, CLI, curl (and curl ×4 when there are several files) on the same file set, in
 * rounds (BenchContext.measureRounds).
 */
async function uploadSubjects(
  ctx: BenchContext,
  scenario: string,
  bytes: number,
  fresh: () => Promise<Record<string, string>>,
  parallel: boolean,
): Promise<void> {
  const count = Object.keys(await fresh()).length;
  type Files = Record<string, string>;
  const s = await appService(ctx);
  const subjects: {
    subject: string;
    run: (files: Files) => Promise<void> | void;
    bytes: number;
    note?: string;
  }[] = [
    {
      subject: 'app',
      run: async (files) => {
        await appUpload(ctx, s, files, count, BENCH_KIND);
      },
      bytes,
      note: 'Upload screen: detect + uploads.start, 4 files at a time',
    },
    {
      subject: 'Debusine CLI',
      run: (files) => {
        cliUpload(
          ctx.server,
          Object.values(files).map((p) => inChroot(ctx, p)),
        );
      },
      bytes,
    },
    {
      subject: 'curl',
      run: async (files) => {
        await curlUpload(ctx.server, files, { parallel: 1 });
      },
      bytes,
      note: 'openssl dgst + POST + one PUT per file',
    },
  ];
  if (parallel) {
    subjects.push(
      {
        subject: 'curl ×4',
        run: async (files) => {
          await curlUpload(ctx.server, files, { parallel: 4 });
        },
        bytes,
        note: '4 PUTs in parallel',
      },
      {
        subject: 'curl ×4, probe first',
        run: async (files) => {
          await curlUpload(ctx.server, files, { parallel: 4, probe: true });
        },
        bytes,
        note: 'probe + PUT per file, as the CLI does (4 at a time)',
      },
    );
  } else {
    subjects.push({
      subject: 'curl, 50 MiB chunks',
      run: async (files) => {
        await curlUpload(ctx.server, files, { parallel: 1, probe: true, chunk: MAX_CHUNK });
      },
      bytes,
      note: 'probe + Content-Range chunks, as the Debusine client does',
    });
  }
  try {
    await ctx.measureRounds(scenario, subjects, fresh);
  } finally {
    await s.close();
  }
}

export async function uploadBigFile(ctx: BenchContext): Promise<void> {
  const { bigFile } = ctx.sizes;
  const scenario = `upload 1 file of ${mib(bigFile)}`;
  const dir = dataDir(ctx.server.root).host;
  try {
    const file = join(dir, 'big.bin');
    await writeRandomFile(file, bigFile);
    await uploadSubjects(
      ctx,
      scenario,
      bigFile,
      async () => {
        await makeUnique(file);
        return { 'big.bin': file };
      },
      false,
    );
    const ratio = ctx.median(scenario, 'app') / ctx.median(scenario, 'curl');
    ctx.target(scenario, `one big file: app time / curl time`, ratio, {
      max: 1.05,
      text: '≤ 1.05',
    });
    const chunked = ctx.median(scenario, 'app') / ctx.median(scenario, 'curl, 50 MiB chunks');
    ctx.target(scenario, 'one big file: app time / curl in 50 MiB chunks (informative)', chunked, {
      max: 1.05,
      text: '≤ 1.05',
    });
  } finally {
    cleanData(ctx.server.root);
  }
}

export async function uploadSmallFiles(ctx: BenchContext): Promise<void> {
  const { smallFiles, smallFileSize } = ctx.sizes;
  const scenario = `upload ${String(smallFiles)} files of ${mib(smallFileSize)}`;
  const dir = dataDir(ctx.server.root).host;
  try {
    const files: Record<string, string> = {};
    for (let i = 0; i < smallFiles; i++) {
      const name = `small-${String(i).padStart(3, '0')}.bin`;
      files[name] = join(dir, name);
      await writeRandomFile(join(dir, name), smallFileSize);
    }
    await uploadSubjects(
      ctx,
      scenario,
      smallFiles * smallFileSize,
      async () => {
        for (const path of Object.values(files)) await makeUnique(path);
        return files;
      },
      true,
    );
    const app = ctx.median(scenario, 'app');
    ctx.target(
      scenario,
      'many small files: app time / curl ×4 time',
      app / ctx.median(scenario, 'curl ×4'),
      {
        max: 1.2,
        text: '≤ 1.20',
      },
    );
    ctx.target(
      scenario,
      'many small files: CLI time / app time',
      ctx.median(scenario, 'Debusine CLI') / app,
      {
        min: 3,
        text: '≥ 3',
      },
    );
  } finally {
    cleanData(ctx.server.root);
  }
}

/**
 * A source package from its .dsc, as `debusine import-debian` sends it: the app's Upload
 * screen against the CLI and two raw-HTTP runs. "curl ×4, as import-debian" makes the same
 * server state as the app and the CLI (a debian:source-package artifact with the .dsc's
 * fields, its category and data read beforehand by the client's own
 * `prepare_dsc_for_upload`, so curl parses nothing); "curl ×4" and "curl" send the same
 * bytes as an artifact of the bench's own category with no data, which the server takes
 * with less work.
 */
export async function uploadSourcePackage(ctx: BenchContext): Promise<void> {
  const { origTarball } = ctx.sizes;
  const scenario = `upload source package (${mib(origTarball)} orig)`;
  const dir = dataDir(ctx.server.root).host;
  const fresh = async (): Promise<SourcePackage & { asImport: PreparedArtifact }> => {
    const pkg = await makeSourcePackage(dir, origTarball);
    return { ...pkg, asImport: importedSourcePackageOf(ctx.server, inChroot(ctx, pkg.dsc)) };
  };
  const s = await appService(ctx);
  try {
    // In rounds, as the other upload scenarios: a slow spell of the machine falls on every
    // subject alike.
    await ctx.measureRounds(
      scenario,
      [
        {
          subject: 'app',
          run: async (pkg) => {
            await appUpload(ctx, s, Object.values(pkg.files), 3);
          },
          bytes: origTarball,
          note: 'Upload screen: the .dsc and its files dropped',
        },
        {
          subject: 'Debusine CLI',
          run: (pkg) => {
            cliImportDsc(ctx.server, inChroot(ctx, pkg.dsc));
          },
          bytes: origTarball,
          note: 'import-debian',
        },
        {
          subject: 'curl ×4, as import-debian',
          run: async (pkg) => {
            await curlUploadAsDput(ctx.server, ctx.server.workspace, [pkg.asImport], {
              parallel: 4,
            });
          },
          bytes: origTarball,
          note: 'the same debian:source-package artifact, 4 PUTs at a time',
        },
        ...(
          [
            ['curl', 1],
            ['curl ×4', 4],
          ] as const
        ).map(([subject, parallel]) => ({
          subject,
          run: (pkg: SourcePackage) => curlUpload(ctx.server, pkg.files, { parallel }),
          bytes: origTarball,
          note: "the same files as an artifact of the bench's category, with no data",
        })),
      ],
      fresh,
    );
    const app = ctx.median(scenario, 'app');
    ctx.target(
      scenario,
      'source package: app time / curl ×4 time, making the same source package artifact',
      app / ctx.median(scenario, 'curl ×4, as import-debian'),
      { max: 1.1, text: '≤ 1.10' },
    );
    ctx.target(
      scenario,
      "source package: app time / curl ×4 time, as an artifact of the bench's category (less server work; informative)",
      app / ctx.median(scenario, 'curl ×4'),
      { max: 1.1, text: '≤ 1.10' },
    );
  } finally {
    await s.close();
    cleanData(ctx.server.root);
  }
}

/**
 * A .changes with its source and an arch-all .deb (about twice the orig's size), the way
 * a Debian developer uploads: the app's Upload screen against dput-ng in the chroot, both
 * making the upload, the source package, the binary package and their relations in the
 * developers workspace. Two raw-HTTP baselines: curl making the same artifacts and
 * relations as dput-ng (their category and data read beforehand by dput-ng's own code, so
 * curl parses nothing), and curl sending the same bytes as one artifact, which makes less
 * server state than the journey needs (no packages, no relations).
 */
export async function uploadChanges(ctx: BenchContext): Promise<void> {
  const { origTarball } = ctx.sizes;
  const scenario = `upload .changes with source and binary (${mib(origTarball)} orig, ${mib(origTarball)} .deb)`;
  const { host: dir } = dataDir(ctx.server.root);
  const workspace = ctx.server.developers ?? ctx.server.workspace;
  const fresh = async (): Promise<ChangesUpload & { asDput: PreparedArtifact[] }> => {
    const upload = await makeChangesUpload(dir, origTarball);
    return { ...upload, asDput: dputArtifactsOf(ctx.server, inChroot(ctx, upload.changes)) };
  };
  const bytes = 2 * origTarball;
  const s = await appService(ctx);
  try {
    await ctx.measureRounds(
      scenario,
      [
        {
          subject: 'app',
          run: async (upload) => {
            const job = await uploadThroughApp(s, Object.values(upload.files), { workspace });
            if (job.parts.length !== 3) {
              throw new Error(`the app made ${String(job.parts.length)} artifacts, not 3`);
            }
          },
          bytes,
          note: 'Upload screen: upload + source + binary package, related',
        },
        {
          subject: 'dput',
          run: (upload) => {
            dputUpload(ctx.server, inChroot(ctx, upload.changes), workspace);
          },
          bytes,
          note: 'dput-ng, the Debusine uploader (same artifacts and relations)',
        },
        {
          subject: 'curl ×4, as dput',
          run: async (upload) => {
            await curlUploadAsDput(ctx.server, workspace, upload.asDput, { parallel: 4 });
          },
          bytes,
          note: "dput-ng's artifacts and relations, 4 PUTs at a time",
        },
        {
          subject: 'curl',
          run: async (upload) => {
            await curlUpload(ctx.server, upload.files, { parallel: 4 });
          },
          bytes,
          note: 'the same files as one artifact, 4 PUTs at a time',
        },
      ],
      fresh,
    );
    const app = ctx.median(scenario, 'app');
    ctx.target(scenario, '.changes: dput time / app time', ctx.median(scenario, 'dput') / app, {
      min: 2,
      text: '≥ 2',
    });
    ctx.target(
      scenario,
      ".changes: app time / curl ×4 time, making dput-ng's artifacts and relations",
      app / ctx.median(scenario, 'curl ×4, as dput'),
      { max: 1.2, text: '≤ 1.20' },
    );
    ctx.target(
      scenario,
      '.changes: app time / curl ×4 time, as one artifact (less server state; informative)',
      app / ctx.median(scenario, 'curl'),
      { max: 1.2, text: '≤ 1.20' },
    );
  } finally {
    await s.close();
    cleanData(ctx.server.root);
  }
}
