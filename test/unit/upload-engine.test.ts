/**
 * The upload engine on a .changes, against a fake that keeps the real server's rule for
 * what a new artifact must be sent: a file counts as there only when the workspace holds a
 * complete copy of it (a copy still being uploaded for another artifact does not count).
 * It checks what reaches the server: the artifacts and their order, each file's bytes sent
 * once, no probe for the files of an artifact just created, the relations dput-ng makes,
 * the workflow with "@UPLOAD@" filled in, and a job that goes on after a cut without
 * making an artifact twice.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DebusineClient } from '../../src/main/api/client';
import { changesSet } from '../../src/main/artifacts/local/changes-set';
import { UploadJobStore } from '../../src/main/artifacts/transfer/job-store';
import { createUpload } from '../../src/main/artifacts/local/kinds-debian';
import { planParts, runUploadJob, startJob } from '../../src/main/artifacts/transfer/upload-engine';
import { DebusineError } from '../../src/shared/errors';
import { debianFixtures, missingDebianTools } from '../support/debian-fixtures';
import { listenOnLoopback } from '../support/loopback-http';

interface FakeArtifact {
  id: number;
  category: string;
  data: Record<string, unknown>;
  files: Record<string, { size: number; sha256: string; complete: boolean }>;
}

interface Fake {
  apiUrl: string;
  artifacts: FakeArtifact[];
  relations: { artifact: number; target: number; type: string }[];
  workflows: { template_name: string; workspace: string; task_data: unknown }[];
  /** Bytes received per file name, over every PUT. */
  bytes: Map<string, number>;
  /** PUTs that only ask where to go on (`bytes *\/size`). */
  probes: string[];
  /** Fail the next PUT of this file with a dropped connection, once. */
  cutNext: string | null;
  /** What the server did, in order: `create <id>`, `stored <id> <path>`, `relate <id>`. */
  log: string[];
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function fakeServer(): Promise<Fake> {
  const stored = new Map<string, Buffer>(); // sha256 → complete content
  const partial = new Map<string, Buffer>(); // `${id}/${path}` → bytes so far
  const fake: Omit<Fake, 'apiUrl' | 'close'> = {
    artifacts: [],
    relations: [],
    workflows: [],
    bytes: new Map(),
    probes: [],
    cutNext: null,
    log: [],
  };
  const json = (res: ServerResponse, status: number, value: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '';
      const data = await body(req);
      if (req.method === 'POST' && url === '/api/1.0/artifact/') {
        const request = JSON.parse(data.toString()) as {
          category: string;
          data: Record<string, unknown>;
          files: Record<string, { size: number; checksums: { sha256: string } }>;
        };
        const artifact: FakeArtifact = {
          id: fake.artifacts.length + 100,
          category: request.category,
          data: request.data,
          files: {},
        };
        for (const [path, f] of Object.entries(request.files)) {
          const sha256 = f.checksums.sha256;
          artifact.files[path] = { size: f.size, sha256, complete: stored.has(sha256) };
        }
        fake.artifacts.push(artifact);
        fake.log.push(`create ${String(artifact.id)}`);
        json(res, 201, {
          id: artifact.id,
          workspace: 'developers',
          category: artifact.category,
          created_at: new Date().toISOString(),
          data: artifact.data,
          download_tar_gz_url: `/api/1.0/artifact/${String(artifact.id)}/?archive=tar.gz`,
          files_to_upload: Object.entries(artifact.files)
            .filter(([, f]) => !f.complete)
            .map(([p]) => p),
          links: {},
        });
        return;
      }
      const put = /^\/api\/1\.0\/artifact\/(\d+)\/files\/(.+)\/$/.exec(url);
      if (req.method === 'PUT' && put?.[1] && put[2]) {
        const artifact = fake.artifacts.find((a) => a.id === Number(put[1]));
        const path = decodeURIComponent(put[2]);
        const file = artifact?.files[path];
        if (!artifact || !file) return json(res, 404, { title: 'no such file' });
        const key = `${String(artifact.id)}/${path}`;
        const range = req.headers['content-range'] ?? '';
        if (range.startsWith('bytes */')) {
          fake.probes.push(path);
          if (file.complete) return res.writeHead(200).end();
          const have = partial.get(key)?.length ?? 0;
          return res.writeHead(206, { range: `bytes=0-${String(have)}` }).end();
        }
        if (fake.cutNext === path) {
          fake.cutNext = null;
          req.socket.destroy();
          return;
        }
        fake.bytes.set(path, (fake.bytes.get(path) ?? 0) + data.length);
        const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
        const start = Number(m?.[1] ?? 0);
        const sofar = (partial.get(key) ?? Buffer.alloc(0)).subarray(0, start);
        const now = Buffer.concat([sofar, data]);
        partial.set(key, now);
        if (now.length === file.size) {
          if (createHash('sha256').update(now).digest('hex') !== file.sha256) {
            return json(res, 409, { title: 'Invalid file hash' });
          }
          stored.set(file.sha256, now);
          file.complete = true;
          fake.log.push(`stored ${String(artifact.id)} ${path}`);
          return res.writeHead(201).end();
        }
        return res.writeHead(200, { range: `bytes=0-${String(now.length)}` }).end();
      }
      if (req.method === 'POST' && url === '/api/1.0/artifact-relation/') {
        const relation = JSON.parse(data.toString()) as Fake['relations'][number];
        // The server relates complete artifacts only.
        const incomplete = [relation.artifact, relation.target].find((id) =>
          Object.values(fake.artifacts.find((a) => a.id === id)?.files ?? {}).some(
            (f) => !f.complete,
          ),
        );
        if (incomplete !== undefined) {
          return json(res, 400, {
            title: `Cannot create relation: artifact ${String(incomplete)} is incomplete`,
          });
        }
        fake.relations.push(relation);
        fake.log.push(`relate ${String(relation.target)}`);
        return json(res, 201, { id: fake.relations.length, ...relation });
      }
      if (req.method === 'POST' && url === '/api/1.0/workflow/') {
        const workflow = JSON.parse(data.toString()) as Fake['workflows'][number];
        fake.workflows.push(workflow);
        return json(res, 201, {
          id: 900 + fake.workflows.length,
          task_type: 'Workflow',
          task_name: 'debian_pipeline',
          status: 'running',
          result: '',
          created_at: new Date().toISOString(),
          started_at: null,
          completed_at: null,
          duration: null,
          worker: null,
          task_data: workflow.task_data,
          dynamic_task_data: null,
          priority_base: 0,
          priority_adjustment: 0,
          artifacts: [],
          workspace: 'developers',
          created_by: 1,
        });
      }
      json(res, 404, { title: `no route ${req.method ?? ''} ${url}` });
    })();
  });
  const listening = await listenOnLoopback(server);
  return Object.assign(fake, { apiUrl: `${listening.origin}/api`, close: listening.close });
}

const missing = missingDebianTools();

describe.skipIf(missing !== undefined)('the upload engine on a .changes', () => {
  const fx = missing === undefined ? debianFixtures() : undefined;
  let fake: Fake;
  let client: DebusineClient;

  // A server of its own per test: its store starts empty.
  beforeEach(async () => {
    fake = await fakeServer();
    client = new DebusineClient({ apiUrl: fake.apiUrl, token: 't', scope: 'debusine' });
  });
  afterEach(async () => {
    await client.close();
    await fake.close();
  });

  async function parts() {
    const upload = await createUpload({ changesFile: fx?.changes ?? '' });
    const set = await changesSet(upload);
    return { set, planned: await planParts(set.parts) };
  }

  it('makes what dput-ng makes, sends each file once, and starts the workflow on the upload', async () => {
    const { set, planned } = await parts();
    expect(set.notes).toEqual([]);
    expect(planned.map((p) => p.category)).toEqual([
      'debian:upload',
      'debian:source-package',
      'debian:binary-package',
      'debian:binary-package',
    ]);
    const { outcome } = await startJob(
      client,
      {
        workspace: 'developers',
        parts: planned,
        relate: true,
        workflow: {
          template: 'upload-to-unstable',
          workspace: 'developers',
          data: { source_artifact: '@UPLOAD@', suite: '@DISTRIBUTION@' },
          distribution: 'unstable',
          source: 'test',
          publish: null,
        },
      },
      new UploadJobStore(mkdtempSync(join(tmpdir(), 'ddt-engine-'))),
    );
    const [upload, ...others] = fake.artifacts;
    // The upload first; its packages after it, side by side.
    expect(fake.artifacts[0]?.category).toBe('debian:upload');
    expect(fake.artifacts.map((a) => a.category).sort()).toEqual(
      planned.map((p) => p.category).sort(),
    );
    // The upload holds every file; the packages found them all complete.
    const names = Object.keys(upload?.files ?? {}).sort();
    for (const a of others) for (const f of Object.values(a.files)) expect(f.complete).toBe(true);
    expect(outcome.uploaded[0]?.sort()).toEqual(names);
    expect(outcome.uploaded.slice(1)).toEqual([[], [], []]);
    // Every byte once: what reached the server is each file's size, no more.
    for (const name of names) {
      expect(fake.bytes.get(name), name).toBe(readFileSync(join(fx?.dir ?? '', name)).length);
    }
    // An artifact just created holds nothing: none of its files was probed.
    expect(fake.probes).toEqual([]);
    // Made side by side: in any order.
    const byKey = (r: { target?: number; type: string }) => `${String(r.target)} ${r.type}`;
    expect(fake.relations.map(byKey).sort()).toEqual(
      others.flatMap((a) => [`${String(a.id)} extends`, `${String(a.id)} relates-to`]).sort(),
    );
    expect(new Set(fake.relations.map((r) => r.artifact))).toEqual(new Set([upload?.id]));
    expect(fake.workflows).toEqual([
      {
        template_name: 'upload-to-unstable',
        workspace: 'developers',
        task_data: { source_artifact: upload?.id, suite: 'unstable' },
      },
    ]);
    expect(outcome.workflowId).toBe(901);
    // The data the packages carry is read from their own files, as dput-ng's client does.
    const source = fake.artifacts.find((a) => a.category === 'debian:source-package');
    expect(source?.data).toMatchObject({ name: fx?.source, version: fx?.version, type: 'dpkg' });
    expect(Object.keys(source?.files ?? {}).sort()).toEqual(
      [basename(fx?.dsc ?? ''), basename(fx?.sourceTarball ?? '')].sort(),
    );
    expect(
      others
        .filter((a) => a.category === 'debian:binary-package')
        .map((a) => Object.keys(a.files)[0])
        .sort(),
    ).toEqual((fx?.debs ?? []).map((d) => basename(d)).sort());
  });

  it('makes each package as soon as its files are in, while the upload is still sending', async () => {
    const { planned } = await parts();
    // One file at a time, so that the upload's last file is still to come when a package's
    // files are all stored.
    await startJob(
      client,
      { workspace: 'developers', parts: planned, relate: true },
      new UploadJobStore(mkdtempSync(join(tmpdir(), 'ddt-engine-'))),
      { concurrency: 1 },
    );
    const { log } = fake;
    const lastStored = log.findLastIndex((e) => e.startsWith('stored 100 '));
    const packages = fake.artifacts.slice(1);
    expect(packages).toHaveLength(3);
    const early = packages.filter((a) => log.indexOf(`create ${String(a.id)}`) < lastStored);
    expect(early.length).toBeGreaterThan(0);
    for (const a of packages) {
      // Each made after every one of its files was stored by the upload, so none was sent
      // again, and related only once the upload was complete.
      const created = log.indexOf(`create ${String(a.id)}`);
      for (const path of Object.keys(a.files)) {
        expect(log.indexOf(`stored 100 ${path}`), path).toBeLessThan(created);
      }
      expect(log.indexOf(`relate ${String(a.id)}`)).toBeGreaterThan(lastStored);
    }
    expect(fake.relations).toHaveLength(6);
    for (const name of Object.keys(fake.artifacts[0]?.files ?? {})) {
      expect(fake.bytes.get(name), name).toBe(readFileSync(join(fx?.dir ?? '', name)).length);
    }
  });

  it('goes on after a cut from the recorded step: no artifact twice, only the cut file probed', async () => {
    const { planned } = await parts();
    const store = new UploadJobStore(mkdtempSync(join(tmpdir(), 'ddt-engine-')));
    const tarball = basename(fx?.sourceTarball ?? '');
    fake.cutNext = tarball;
    const first = await startJob(
      client,
      { workspace: 'developers', parts: planned, relate: true },
      store,
      { maxRetries: 0, retryBaseMs: 1, concurrency: 1 },
    ).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(DebusineError);
    expect((first as DebusineError).code).toBe('network');
    const [job] = await store.list();
    expect(job?.parts[0]?.artifactId).toBe(100);
    expect(job?.parts[0]?.begun).toContain(tarball);
    // Before the cut, only packages whose own files had all been confirmed were made: the
    // source package, which needs the cut tarball, was not.
    const before = fake.artifacts.slice(1);
    expect(fake.artifacts[0]?.id).toBe(100);
    expect(before.every((a) => !(tarball in a.files))).toBe(true);
    expect(before.map((a) => a.category)).not.toContain('debian:source-package');
    if (!job) throw new Error('no job recorded');

    const outcome = await runUploadJob(client, job, store);
    expect(fake.artifacts.map((a) => a.id)).toEqual([100, 101, 102, 103]);
    expect(fake.probes).toEqual([tarball]);
    expect(fake.relations).toHaveLength(6);
    expect([...outcome.artifactIds].sort()).toEqual([100, 101, 102, 103]);
    expect(await store.list()).toEqual([]);
  });
});
