/**
 * A fake Debusine (fake-debusine.ts) with a step that waits for an external signature: a
 * running `Wait`/`externaldebsign` work request whose dynamic data names an unsigned
 * `debian:upload` artifact, and what the app needs to answer it as a current server does
 * (signing-real-server.test.ts meets the real one): artifact creation (files the server
 * already has, by SHA-256, are not asked for), the file uploads, and the completion, which
 * checks the signed artifact against the unsigned one. It keeps what it received: each
 * artifact created with the bytes of each file uploaded, and each completion's body.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename } from 'node:path';
import { DebusineClient } from '../../src/main/api/client';
import { fieldString, parseControlFileText } from '../../src/main/artifacts/local/debian-files';
import type { UploadMade } from '../../src/main/signing/uploads-made';
import { debianFixtures } from './debian-fixtures';
import { sha256, startFakeDebusine, type FakeDebusine } from './fake-debusine';

export interface CreatedArtifact {
  id: number;
  request: {
    category: string;
    workspace: string | null;
    files: Record<string, { size: number; checksums: Record<string, string> }>;
    data: Record<string, unknown>;
  };
  /** What was uploaded of each file, by path. */
  uploaded: Map<string, Buffer>;
}

export interface SigningServer {
  fake: FakeDebusine;
  stepId: number;
  unsignedId: number;
  /** A client of this server, as the app makes one (the caller closes it). */
  client(): DebusineClient;
  readonly created: CreatedArtifact[];
  /** The bodies of the completions the server accepted or refused. */
  readonly completions: unknown[];
  /** `running` until a completion is accepted. */
  readonly stepStatus: string;
  /** Makes the server refuse the completion (400, with this detail), as for a bad signature. */
  refuseCompletion(detail: string): void;
  /**
   * Makes the step end (completed by another client) after the app first read it and just
   * before its completion arrives.
   */
  endBeforeCompletion(): void;
  /** Makes the server refuse every file upload (400, with this detail). */
  refuseUploads(detail: string): void;
  close(): Promise<void>;
}

const WORKSPACE = 'Debian';

/** How a hostile server may answer about the step and its upload. */
export interface SigningServerLies {
  /** `task_data.unsigned` (default: the unsigned upload's id, as `unsigned_id`). */
  taskDataUnsigned?: number | string;
  /** The unsigned artifact's category (default `debian:upload`). */
  category?: string;
  /** The unsigned artifact's workspace (default: the step's). */
  artifactWorkspace?: string;
  /** The step is another user's: the server refuses its completion with 403. */
  anotherUsersStep?: boolean;
  /** What a lookup of `task_data.unsigned` resolves to (default: the unsigned upload). */
  lookupResolvesTo?: number;
}

function stepJson(
  id: number,
  unsignedId: number,
  status: string,
  lies: SigningServerLies = {},
): Record<string, unknown> {
  return {
    id,
    url: `/debusine/${WORKSPACE}/work-request/${String(id)}/`,
    created_at: '2026-11-21T12:00:00Z',
    started_at: '2026-11-21T12:00:01Z',
    completed_at: status === 'completed' ? '2026-11-21T12:05:00Z' : null,
    duration: null,
    status,
    result: status === 'completed' ? 'success' : '',
    worker: null,
    task_type: 'Wait',
    task_name: 'externaldebsign',
    task_data: { unsigned: lies.taskDataUnsigned ?? unsignedId },
    dynamic_task_data: { unsigned_id: unsignedId },
    priority_base: 0,
    priority_adjustment: 0,
    artifacts: [],
    scope: 'debusine',
    workspace: WORKSPACE,
    created_by: 2,
    parent: 40,
    workflow_root: 40,
    links: {},
  };
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(
  res: ServerResponse,
  status: number,
  value: unknown,
  type = 'application/json',
): void {
  res.writeHead(status, { 'content-type': type }).end(JSON.stringify(value));
}

function problem(res: ServerResponse, detail: string): void {
  json(res, 400, { title: 'Error', detail }, 'application/problem+json');
}

export async function signingServer(options: {
  /** The unsigned upload's files: a .changes and what it lists. */
  files: { path: string; content: Buffer; size?: number }[];
  stepId?: number;
  unsignedId?: number;
  lies?: SigningServerLies;
}): Promise<SigningServer> {
  const lies = options.lies ?? {};
  const fake = await startFakeDebusine();
  const stepId = options.stepId ?? 41;
  const unsignedId = options.unsignedId ?? 500;
  let stepStatus = 'running';
  let endBeforeCompletion = false;
  let refusal: string | undefined;
  let uploadRefusal: string | undefined;
  const created: CreatedArtifact[] = [];
  const completions: unknown[] = [];
  const unsignedHashes = new Map(options.files.map((f) => [f.path, sha256(f.content)]));
  const known = new Set(unsignedHashes.values());
  let nextId = 900;

  fake.artifact(unsignedId, options.files, {
    category: lies.category ?? 'debian:upload',
    fields: { workspace: lies.artifactWorkspace ?? WORKSPACE },
  });
  fake.route('GET', '/api/1.0/whoami/', (_req, res) => {
    json(res, 200, { user: 'tester', auth: true, work_request: null, worker: false });
  });
  fake.route('POST', '/api/1.0/lookup/single/', (req, res) => {
    void bodyOf(req).then(() => {
      json(res, 200, {
        result_type: 'artifact',
        collection_item: null,
        artifact: lies.lookupResolvesTo ?? unsignedId,
        collection: null,
      });
    });
  });
  const stepPath = `/api/1.0/work-request/${String(stepId)}/external-debsign/`;
  fake.route('GET', `/api/1.0/work-request/${String(stepId)}/`, (_req, res) => {
    json(res, 200, stepJson(stepId, unsignedId, stepStatus, lies));
  });
  fake.route('GET', stepPath, (_req, res) => {
    if (stepStatus !== 'running') {
      problem(res, `Work request is not running. Status: ${stepStatus}`);
    } else {
      json(res, 200, stepJson(stepId, unsignedId, stepStatus, lies));
    }
  });
  fake.route('POST', stepPath, (req, res) => {
    void bodyOf(req).then((body) => {
      const request = JSON.parse(body.toString('utf8')) as { signed_artifact?: unknown };
      // As Debusine: the creator is checked first (403), then the body (400).
      if (lies.anotherUsersStep) {
        json(
          res,
          403,
          {
            title: 'Error',
            detail: 'Only the user who created the work request can provide a signature',
          },
          'application/problem+json',
        );
        return;
      }
      if (request.signed_artifact === undefined) {
        json(
          res,
          400,
          {
            title: 'Error',
            detail: 'Invalid request',
            validation_errors: { signed_artifact: ['This field is required.'] },
          },
          'application/problem+json',
        );
        return;
      }
      completions.push(request);
      if (endBeforeCompletion) stepStatus = 'completed';
      const signed = created.find((a) => a.id === request.signed_artifact);
      if (stepStatus !== 'running') {
        problem(res, `Work request is not running. Status: ${stepStatus}`);
        return;
      }
      if (refusal !== undefined) {
        problem(res, refusal);
        return;
      }
      if (!signed) {
        problem(res, 'Invalid pk - object does not exist.');
        return;
      }
      // The server's own checks of the signed upload against the unsigned one.
      const paths = Object.keys(signed.request.files);
      const added = paths.filter((p) => !unsignedHashes.has(p));
      const changed = paths.filter(
        (p) => signed.request.files[p]?.checksums.sha256 !== unsignedHashes.get(p),
      );
      if (added.length > 0) {
        problem(res, `Signed upload adds extra files: ${added.join(', ')}`);
      } else if (!changed.some((p) => p.endsWith('.changes'))) {
        problem(res, 'Signed upload does not change the .changes file');
      } else if (!changed.every((p) => /\.(changes|dsc|buildinfo)$/.test(p))) {
        problem(
          res,
          `Signed upload changes more than .changes/.dsc/.buildinfo: ${changed.join(', ')}`,
        );
      } else {
        stepStatus = 'completed';
        json(res, 200, stepJson(stepId, unsignedId, stepStatus, lies));
      }
    });
  });
  fake.route('POST', '/api/1.0/artifact/', (req, res) => {
    void bodyOf(req).then((body) => {
      const request = JSON.parse(body.toString('utf8')) as CreatedArtifact['request'];
      const id = nextId++;
      const artifact: CreatedArtifact = { id, request, uploaded: new Map() };
      created.push(artifact);
      const toUpload = Object.entries(request.files)
        .filter(([, file]) => !known.has(file.checksums.sha256 ?? ''))
        .map(([path]) => path);
      for (const path of toUpload) {
        const size = request.files[path]?.size ?? 0;
        fake.route(
          'PUT',
          `/api/1.0/artifact/${String(id)}/files/${encodeURIComponent(path)}/`,
          (put, answer) => {
            void bodyOf(put).then((chunk) => {
              if (uploadRefusal !== undefined) {
                problem(answer, uploadRefusal);
                return;
              }
              const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(put.headers['content-range'] ?? '');
              const before = artifact.uploaded.get(path) ?? Buffer.alloc(0);
              const start = range ? Number(range[1]) : 0;
              const now = Buffer.concat([before.subarray(0, start), chunk]);
              artifact.uploaded.set(path, now);
              if (now.length >= size) {
                known.add(sha256(now));
                answer.writeHead(201).end();
              } else {
                answer.writeHead(206, { range: `bytes=0-${String(now.length)}` }).end();
              }
            });
          },
        );
      }
      json(res, 201, {
        id,
        url: `/debusine/${WORKSPACE}/artifact/${String(id)}/`,
        scope: 'debusine',
        workspace: request.workspace ?? WORKSPACE,
        category: request.category,
        created_at: '2026-11-21T12:06:00Z',
        data: request.data,
        download_tar_gz_url: `/debusine/${WORKSPACE}/artifact/${String(id)}/download/`,
        files_to_upload: toUpload,
        files: {},
        links: {},
      });
    });
  });

  return {
    fake,
    stepId,
    unsignedId,
    client: () => new DebusineClient({ apiUrl: fake.apiUrl, token: 'a-user-token', retries: 0 }),
    created,
    completions,
    get stepStatus() {
      return stepStatus;
    },
    refuseCompletion(detail) {
      refusal = detail;
    },
    endBeforeCompletion() {
      endBeforeCompletion = true;
    },
    refuseUploads(detail) {
      uploadRefusal = detail;
    },
    close: () => fake.close(),
  };
}

/**
 * The record the app keeps of an upload it made of these files (a .changes and what it
 * lists), as signing reads it: `change` alters it, to make the server's upload differ.
 */
export function uploadMadeOf(
  files: readonly { path: string; content: Buffer }[],
  change: (made: UploadMade) => void = () => undefined,
): (source: string) => Promise<UploadMade[]> {
  const made = madeRecord(files, change);
  return (source) => Promise.resolve(source === made.source ? [made] : []);
}

export function madeRecord(
  files: readonly { path: string; content: Buffer }[],
  change: (made: UploadMade) => void = () => undefined,
): UploadMade {
  const changes = files.find((f) => f.path.endsWith('.changes'));
  if (!changes) throw new Error('no .changes among the files');
  const parsed = parseControlFileText('changes', changes.content.toString('utf8'), changes.path);
  const made: UploadMade = {
    server: 'test',
    workspace: WORKSPACE,
    madeAt: '2026-11-20T10:00:00Z',
    artifactId: 300,
    workflowId: 40,
    source: fieldString(parsed.fields, 'Source') ?? '',
    version: fieldString(parsed.fields, 'Version') ?? '',
    distribution: fieldString(parsed.fields, 'Distribution') ?? '',
    files: Object.fromEntries(files.map((f) => [f.path, sha256(f.content)])),
  };
  change(made);
  return made;
}

/**
 * The unsigned upload signing tests serve: the fixtures' .changes (debian-fixtures.ts) and
 * every file it lists, by name.
 */
export function fixtureUpload(): Promise<{ path: string; content: Buffer }[]> {
  const f = debianFixtures();
  const paths = [f.changes, f.dsc, f.sourceTarball, f.buildinfo, ...f.debs];
  return Promise.all(paths.map(async (p) => ({ path: basename(p), content: await readFile(p) })));
}
