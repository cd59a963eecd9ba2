/**
 * External signing (the Wait step `externaldebsign`): the server waits for the user to
 * sign an upload with their own key. Main downloads the unsigned upload, runs `debsign` on
 * its .changes (which also signs the .dsc and .buildinfo it lists) with the user's
 * gpg-agent, uploads the signed files as a new `debian:upload` artifact and completes the
 * step with it. As the Debusine CLI's `work-request sign` does: only the .changes, .dsc and
 * .buildinfo are fetched; the other files stay remote (the server has them already).
 * execFile, never a shell: no file name is ever read as shell syntax.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import type { DebusineClient } from '../api/client';
import { createUpload, downloadArtifactFile, uploadArtifact } from '../artifacts';
import type { SigningAvailability, SigningResult } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';

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

export type RunDebsign = (changesFile: string, cwd: string) => Promise<void>;

/** Runs `debsign` with the user's environment (GNUPGHOME, the agent socket, DEBSIGN_KEYID). */
export const runDebsign: RunDebsign = (changesFile, cwd) =>
  new Promise((resolve, reject) => {
    execFile(
      'debsign',
      ['--re-sign', basename(changesFile)],
      { cwd, timeout: 10 * 60_000, maxBuffer: 1024 * 1024, shell: false, windowsHide: true },
      (error, _stdout, stderr) => {
        if (error) {
          reject(
            new DebusineError(
              'validation',
              `debsign failed: ${stderr.trim().split('\n').slice(-3).join(' ') || error.message}`,
              {
                rule: 'debsign',
              },
            ),
          );
        } else resolve();
      },
    );
  });

export async function signAndComplete(
  client: DebusineClient,
  workRequestId: number,
  options: { run?: RunDebsign; tmpRoot?: string } = {},
): Promise<SigningResult> {
  const step = await client.workRequestExternalDebsignGet(workRequestId);
  const unsignedId = step.dynamic_task_data?.unsigned_id;
  if (typeof unsignedId !== 'number') {
    throw new DebusineError(
      'bad-response',
      `Work request ${String(workRequestId)} names no unsigned upload`,
      {
        operation: 'signAndComplete',
        field: 'dynamic_task_data.unsigned_id',
      },
    );
  }
  const dir = await mkdtemp(join(options.tmpRoot ?? tmpdir(), 'debusine-desktop-sign-'));
  try {
    const unsigned = await client.artifactGet(unsignedId);
    const names = Object.keys(unsigned.files).filter((n) => /\.(changes|dsc|buildinfo)$/.test(n));
    const changes = names.filter((n) => n.endsWith('.changes'));
    const [changesName] = changes;
    if (changesName === undefined || changes.length !== 1) {
      throw new DebusineError(
        'validation',
        `Artifact ${String(unsignedId)} must hold exactly one .changes file`,
        {
          rule: 'debsign.changes',
        },
      );
    }
    for (const name of names) {
      if (name.includes('/'))
        throw new DebusineError('bad-response', `Unexpected file name ${name}`);
      await downloadArtifactFile(client, unsigned, name, join(dir, name));
    }
    const changesFile = join(dir, changesName);
    await (options.run ?? runDebsign)(changesFile, dir);
    const signed = await createUpload({ changesFile, allowRemote: true });
    const uploaded = await uploadArtifact(client, signed, {
      workspace: unsigned.workspace,
    });
    const workRequest = await client.workRequestExternalDebsignComplete(workRequestId, {
      signed_artifact: uploaded.id,
    });
    return { workRequest, signedArtifactId: uploaded.id };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
