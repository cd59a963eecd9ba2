/**
 * External signing (the Wait step `externaldebsign`): the server waits for the user to
 * sign an upload with their own key. As the Debusine CLI's `work-request sign` does: read
 * the step with its dynamic data, fetch only the unsigned upload's .changes, .dsc and
 * .buildinfo, run `debsign --re-sign` on the .changes (which signs the .dsc and .buildinfo
 * it lists too), upload the signed files as a new `debian:upload` artifact whose other
 * files stay remote (allow_remote: the server has them already), and complete the step
 * with it.
 *
 * Unlike the CLI, the key is chosen here (choose-key.ts) and passed as `-k<fingerprint>`,
 * and everything the server sent is checked before debsign reads it (server-checks.ts).
 * The page shows that key before signing (signingKeyChoice): one function, `prepare`,
 * reads the step, its .changes, the keys and the devscripts files for both, so that the
 * key shown is the key that signs (and signing stops if it no longer is).
 */
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { DebusineClient } from '../api/client';
import {
  createUpload,
  downloadArtifactFile,
  uploadArtifact,
  type LocalArtifact,
} from '../artifacts';
import { readFile } from 'node:fs/promises';
import {
  MAX_CONTROL_FILE,
  fieldString,
  parseControlFileText,
  readChanges,
} from '../artifacts/local/debian-files';
import type { ArtifactResponse, WorkRequestResponse } from '../../shared/models';
import type {
  SigningAvailability,
  SigningKeyChoice,
  SigningResult,
  SigningReview,
} from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import { chooseKey, noSecretKey, requestedKey, summary, type KeyChoice } from './choose-key';
import { devscriptsFiles, readDebsignConfig, type DebsignConfig } from './devscripts-config';
import { gpgSecretKeys, type SecretKey } from './gpg-keys';
import { debsignRunner, type RunDebsign } from './run-debsign';
import { checkChanges, checkUnsigned, filesToSign, refused, unsignedIdOf } from './server-checks';
import { reviewUpload } from './upload-review';
import type { UploadMade } from './uploads-made';

export type { RunDebsign } from './run-debsign';

/** The program on PATH, or undefined. */
export async function findProgram(
  name: string,
  path = process.env.PATH ?? '',
): Promise<string | undefined> {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

export async function signingAvailable(path?: string): Promise<SigningAvailability> {
  const debsign = (await findProgram('debsign', path)) !== undefined;
  const gpg = (await findProgram('gpg', path)) !== undefined;
  const missing = [
    !debsign && 'debsign (package devscripts)',
    !gpg && 'gpg (package gnupg)',
  ].filter(Boolean);
  return {
    available: debsign && gpg,
    debsign,
    gpg,
    message: missing.length ? `Install ${missing.join(' and ')} to sign uploads here.` : null,
  };
}

/** Where the keys and debsign's configuration come from; tests use a GNUPGHOME of their own. */
export interface KeyLookup {
  secretKeys(): Promise<SecretKey[]>;
  debsignConfig(): Promise<DebsignConfig>;
}

/** gpg's keys and the devscripts files of `env` (HOME, as debsign's `~` is). */
export function keyLookup(env: NodeJS.ProcessEnv = process.env): KeyLookup {
  const home = env.HOME ?? homedir();
  return {
    secretKeys: gpgSecretKeys(env),
    debsignConfig: () => readDebsignConfig(devscriptsFiles(home)),
  };
}

export interface KeyChoiceOptions {
  keys?: KeyLookup;
  tmpRoot?: string;
  /**
   * The uploads of a source this app made on the step's server, newest first, which the
   * step's upload is compared with (none: every upload is one this app did not make).
   */
  uploadsMade?: (source: string) => Promise<UploadMade[]>;
}

export interface SignOptions extends KeyChoiceOptions {
  run?: RunDebsign;
  /** The fingerprint the user chose (one of `keys`' secret keys, checked here). */
  key?: string | undefined;
  /** The fingerprint the page showed as debsign's key: signing stops if that changed. */
  expected?: string | undefined;
  /**
   * The digest of the review the user read and confirmed. Without it only an upload this
   * app made, as it made it, signs; with it, only the upload that review was of.
   */
  reviewed?: string | undefined;
}

/**
 * The .changes, .dsc and .buildinfo are read whole (the parser's bound): one the server
 * declares larger is refused before its first byte, rather than downloaded and then refused.
 */
const CONTROL_FILE = { maxSize: MAX_CONTROL_FILE };

/** What signing a step starts from: its unsigned upload, its .changes here, and the key. */
interface Prepared {
  unsigned: ArtifactResponse;
  /** The files to fetch and sign (the .changes among them). */
  names: string[];
  /** The .changes: its name, and where it was fetched to. */
  changes: string;
  changesFile: string;
  keys: SecretKey[];
  choice: KeyChoice;
  review: SigningReview;
  /** The .dsc, fetched into the same folder (a binary-only upload has none). */
  dsc: string | null;
}

/**
 * The one way both the page's key and signing's are found: the step must still wait, the
 * keys and the devscripts files are read before anything is fetched (without gpg, a key or
 * a readable configuration, nothing is), then only the .changes is fetched into `dir` and
 * checked, and its Changed-By and Maintainer decide the key with the rest.
 */
async function prepare(
  client: DebusineClient,
  workRequestId: number,
  lookup: KeyLookup,
  dir: string,
  uploadsMade: KeyChoiceOptions['uploadsMade'],
  requested?: string,
): Promise<Prepared> {
  const step = await client.workRequestExternalDebsignGet(workRequestId);
  const unsignedId = unsignedIdOf(step, workRequestId);
  const [keys, config] = await Promise.all([lookup.secretKeys(), lookup.debsignConfig()]);
  if (keys.length === 0) throw noSecretKey();
  if (requested !== undefined) requestedKey(keys, requested);
  const unsigned = await client.artifactGet(unsignedId);
  checkUnsigned(step, unsigned);
  await checkNamedUpload(client, step, unsigned.id);
  const { names, changes } = filesToSign(unsigned);
  const changesFile = join(dir, changes);
  await downloadArtifactFile(client, unsigned, changes, changesFile, CONTROL_FILE);
  const {
    text: changesText,
    parsed: parsedChanges,
    ...fields
  } = await checkChanges(changesFile, unsigned);
  // The .dsc is read for the review: the files it lists are what a source upload is.
  const dscName = names.find((n) => n.endsWith('.dsc')) ?? null;
  let dsc: { name: string; bytes: Buffer; parsed: ReturnType<typeof parseControlFileText> } | null =
    null;
  if (dscName !== null) {
    const dscFile = join(dir, dscName);
    await downloadArtifactFile(client, unsigned, dscName, dscFile, CONTROL_FILE);
    const bytes = await readFile(dscFile);
    dsc = {
      name: dscName,
      bytes,
      parsed: parseControlFileText('dsc', bytes.toString('utf8'), dscName),
    };
  }
  const source = fieldString(parsedChanges.fields, 'Source') ?? '';
  const made = (await uploadsMade?.(source.split(' ')[0] ?? '')) ?? [];
  const review = reviewUpload(
    { artifact: unsigned, changesName: changes, changesText, changes: parsedChanges, dsc },
    made,
  );
  const choice = chooseKey({ keys, config, ...fields });
  return {
    unsigned,
    names,
    changes,
    changesFile,
    keys,
    choice,
    review,
    dsc: dsc === null ? null : dsc.name,
  };
}

/** A temporary directory for one signing or one look at its key, removed after `use`. */
async function inTemporaryDir<T>(
  tmpRoot: string | undefined,
  use: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpRoot ?? tmpdir(), 'debusine-desktop-sign-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The key signAndComplete would use for the step when given none, for the page to show. */
export function signingKeyChoice(
  client: DebusineClient,
  workRequestId: number,
  options: KeyChoiceOptions = {},
): Promise<SigningKeyChoice> {
  return inTemporaryDir(options.tmpRoot, async (dir) => {
    const { keys, choice, review } = await prepare(
      client,
      workRequestId,
      options.keys ?? keyLookup(),
      dir,
      options.uploadsMade,
    );
    return {
      review,
      named: choice.named.map(summary),
      keys: keys.map(summary),
      reason: choice.reason,
    };
  });
}

/**
 * Uploads the signed files as a new artifact in the unsigned one's workspace, through the
 * app's upload engine (a job of one part, not recorded: a signing interrupted is signed
 * again, not resumed).
 */
export async function uploadSigned(
  client: DebusineClient,
  signed: LocalArtifact,
  workspace: string,
): Promise<number> {
  const uploaded = await uploadArtifact(client, signed, { workspace });
  return uploaded.id;
}

export function signAndComplete(
  client: DebusineClient,
  workRequestId: number,
  options: SignOptions = {},
): Promise<SigningResult> {
  const run = options.run ?? debsignRunner();
  return inTemporaryDir(options.tmpRoot, async (dir) => {
    const files = join(dir, 'upload');
    const tmp = join(dir, 'tmp');
    await mkdir(files);
    await mkdir(tmp);
    const lookup = options.keys ?? keyLookup();
    const prepared = await prepare(
      client,
      workRequestId,
      lookup,
      files,
      options.uploadsMade,
      options.key,
    );
    const { unsigned, changesFile, choice, review } = prepared;
    // What the user's key signs is what the user uploaded, or what the user read and
    // confirmed: the upload as it is now, not as it was when the page read it.
    if (options.reviewed !== undefined && options.reviewed !== review.digest) {
      return {
        status: 'review',
        review,
        reason:
          'The upload to be signed is not the one you read: the server names another, or ' +
          'its files changed since. Nothing was signed; read it again.',
      };
    }
    if (options.reviewed === undefined && review.verdict !== 'same') {
      return { status: 'review', review, reason: review.summary };
    }
    let key: SecretKey;
    let keyReason: string;
    if (options.key !== undefined) {
      key = requestedKey(prepared.keys, options.key);
      keyReason = "You chose it on the step's page.";
    } else {
      const [only] = choice.named;
      if (only === undefined || choice.named.length !== 1) {
        const keys = choice.named.length > 1 ? choice.named : prepared.keys;
        return { status: 'choose-key', keys: keys.map(summary), reason: choice.reason };
      }
      if (options.expected !== undefined && options.expected !== only.fingerprint) {
        throw keyChanged(only, choice.reason);
      }
      key = only;
      keyReason = choice.reason;
    }
    // The server says whether this user may complete the step, before anything is signed:
    // a signature made for a step the server then refuses is a signature given away.
    await mayComplete(client, workRequestId);
    for (const name of prepared.names.filter((n) => n !== prepared.changes && n !== prepared.dsc)) {
      const control = /\.(dsc|buildinfo)$/.test(name);
      await downloadArtifactFile(
        client,
        unsigned,
        name,
        join(files, name),
        control ? CONTROL_FILE : {},
      );
    }
    await run({ changesFile, cwd: files, key: key.fingerprint, tmpDir: tmp });
    if (!(await readChanges(changesFile)).signed) {
      throw new DebusineError(
        'internal',
        'debsign ended without signing the .changes; nothing was uploaded.',
        { rule: 'debsign.unsigned' },
      );
    }
    const signed = await createUpload({ changesFile, allowRemote: true });
    const extra = signed.paths().filter((p) => !(p in unsigned.files));
    if (extra.length > 0) {
      throw refused(`The signed upload would add ${extra.join(', ')}`, 'signing.extra-files');
    }
    let signedArtifactId: number;
    try {
      signedArtifactId = await uploadSigned(client, signed, unsigned.workspace);
    } catch (error) {
      throw notUploaded(error, workRequestId);
    }
    let workRequest: WorkRequestResponse;
    try {
      workRequest = await client.workRequestExternalDebsignComplete(workRequestId, {
        signed_artifact: signedArtifactId,
      });
    } catch (error) {
      // The step may have ended between the first read and now (completed by another
      // client, aborted): then it no longer waits, which is not what a refusal means.
      const now = await client.workRequestGet(workRequestId).catch(() => undefined);
      if (now && now.status !== 'running') {
        throw noLongerWaits(error, now, signedArtifactId, key);
      }
      throw notCompleted(error, workRequestId, signedArtifactId, key);
    }
    return { status: 'signed', workRequest, signedArtifactId, key: summary(key), keyReason };
  });
}

/**
 * A workflow names the upload to sign by a lookup (`internal@collections/name:…`), which
 * the server resolved into `unsigned_id` when the step started: resolved again, it must
 * give the same artifact, or the step names two uploads (one its pages show, one the
 * server compares the signature with). Earlier servers resolve lookups for workers only;
 * where the server cannot say, the artifact shown and signed is still `unsigned_id`.
 */
async function checkNamedUpload(
  client: DebusineClient,
  step: WorkRequestResponse,
  unsignedId: number,
): Promise<void> {
  const named = step.task_data.unsigned;
  if (typeof named !== 'string') return;
  let resolved: number | null;
  try {
    const answer = await client.lookupSingle({
      lookup: named,
      workspace: step.workspace,
      workflow_root: step.workflow_root ?? null,
      expect_type: 'artifact',
    });
    resolved = answer.artifact;
  } catch (error) {
    if (error instanceof DebusineError && ['network', 'timeout'].includes(error.code)) throw error;
    return;
  }
  if (resolved !== null && resolved !== unsignedId) {
    throw refused(
      `Work request ${String(step.id)} names two uploads to sign: ${JSON.stringify(named.slice(0, 200))} ` +
        `is artifact ${String(resolved)}, and its dynamic data names artifact ${String(unsignedId)}`,
      'signing.unsigned-mismatch',
      { field: 'task_data.unsigned' },
    );
  }
}

/**
 * Whether the server lets this user complete the step. Debusine lets only the user who
 * created a step complete it, and checks that before it reads what is sent: a completion
 * with no signed artifact is refused as incomplete (400) for that user, and as forbidden
 * (403) for any other, and changes nothing either way.
 */
async function mayComplete(client: DebusineClient, workRequestId: number): Promise<void> {
  try {
    await client.workRequestExternalDebsignMayComplete(workRequestId);
  } catch (error) {
    if (error instanceof DebusineError && error.code === 'forbidden') {
      throw new DebusineError(
        'forbidden',
        `The server lets only the user who started the workflow sign work request ` +
          `${String(workRequestId)}, and that is not you (${error.message}); nothing was signed.`,
        { operation: 'signAndComplete', rule: 'signing.not-yours' },
        error,
      );
    }
    throw error;
  }
}

/**
 * The page showed one key as debsign's, and the choice made now names another: a key was
 * made or removed, or a devscripts file changed, since. Signing with a key the user was
 * not shown is what this stops.
 */
function keyChanged(now: SecretKey, reason: string): DebusineError {
  const who = now.userIds[0] ? ` (${now.userIds[0]})` : '';
  return new DebusineError(
    'conflict',
    `The key debsign would use is no longer the one shown: it is now ${now.fingerprint}${who}. ` +
      `${reason} Nothing was signed; look at the key again, then sign.`,
    { rule: 'signing.key-changed', key: now.fingerprint },
  );
}

/** The signed files did not all reach the server: the step was not completed. */
function notUploaded(error: unknown, workRequestId: number): DebusineError {
  const cause = error instanceof DebusineError ? error : undefined;
  const why = error instanceof Error ? error.message : String(error);
  return new DebusineError(
    cause?.code ?? 'internal',
    `The signed upload could not be uploaded: ${why}. Work request ` +
      `${String(workRequestId)} still waits for a signature; sign again to retry.`,
    { ...cause?.details, operation: 'signAndComplete' },
    error,
  );
}

/**
 * The server refused to complete the step with the signed upload: the step still waits,
 * and the artifact made for it stays on the server (no operation deletes an artifact:
 * docs/api-operations.md), so the error names both, and the key.
 */
function noLongerWaits(
  error: unknown,
  step: WorkRequestResponse,
  signedArtifactId: number,
  key: SecretKey,
): DebusineError {
  const result = step.result ? `/${step.result}` : '';
  return new DebusineError(
    'conflict',
    `Work request ${String(step.id)} no longer waits for a signature: it is ${step.status}${result} ` +
      `now, ended while this signature was made. The upload signed by key ${key.fingerprint} ` +
      `was made as artifact ${String(signedArtifactId)}, which the step does not use.`,
    {
      rule: 'signing.step-ended',
      operation: 'signAndComplete',
      stepStatus: step.status,
      signedArtifactId,
      key: key.fingerprint,
    },
    error,
  );
}

function notCompleted(
  error: unknown,
  workRequestId: number,
  signedArtifactId: number,
  key: SecretKey,
): DebusineError {
  const cause = error instanceof DebusineError ? error : undefined;
  const why = error instanceof Error ? error.message : String(error);
  const who = key.userIds[0] ? ` (${key.userIds[0]})` : '';
  return new DebusineError(
    cause?.code ?? 'internal',
    `The server refused to complete work request ${String(workRequestId)} with the upload ` +
      `signed by key ${key.fingerprint}${who}: ${why}. The step still waits for a signature; ` +
      `the signed upload was made as artifact ${String(signedArtifactId)}, which the step ` +
      'does not use.',
    { ...cause?.details, operation: 'signAndComplete', signedArtifactId, key: key.fingerprint },
    error,
  );
}
