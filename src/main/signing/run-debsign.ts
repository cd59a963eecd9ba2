/**
 * Runs devscripts' `debsign` on a .changes, with the key chosen already (`-k<fingerprint>`)
 * and the user's environment (GNUPGHOME, the gpg-agent socket, DISPLAY for its pinentry):
 * the passphrase is asked by the agent's pinentry, never seen by the app. execFile, never a
 * shell. What gpg says when it fails becomes an error that says what happened and that
 * nothing was uploaded (the upload comes after, and only after a success).
 */
import { execFile } from 'node:child_process';
import { basename } from 'node:path';
import { DebusineError } from '../../shared/errors';
import { lastLines } from './gpg-keys';

export interface DebsignRun {
  /** The .changes, in `cwd`; debsign also signs the .dsc and .buildinfo it lists. */
  changesFile: string;
  cwd: string;
  /** The signing key's fingerprint (hex): nothing else is ever passed to -k. */
  key: string;
  /** debsign's own temporary files go here (TMPDIR), so that they go with the caller's. */
  tmpDir: string;
}

export type RunDebsign = (run: DebsignRun) => Promise<void>;

/** Long enough to type a passphrase, or to fetch the key's card. */
export const DEBSIGN_TIMEOUT_MS = 10 * 60_000;

const FINGERPRINT = /^(?:[0-9A-F]{40}|[0-9A-F]{64})$/;

/** `debsign` from `env`'s PATH, run with `env`. */
export function debsignRunner(env: NodeJS.ProcessEnv = process.env): RunDebsign {
  return ({ changesFile, cwd, key, tmpDir }) =>
    new Promise((resolve, reject) => {
      if (!FINGERPRINT.test(key)) {
        reject(new DebusineError('internal', `Not a key fingerprint: ${key}`));
        return;
      }
      const child = execFile(
        'debsign',
        // `--`: the file's name is never read as an option, whatever it starts with.
        [`-k${key}`, '--re-sign', '--', basename(changesFile)],
        {
          cwd,
          env: { ...env, TMPDIR: tmpDir },
          timeout: DEBSIGN_TIMEOUT_MS,
          maxBuffer: 1024 * 1024,
          shell: false,
          windowsHide: true,
          encoding: 'utf8',
        },
        (error, stdout, stderr) => {
          if (!error) resolve();
          else reject(debsignFailure(error, `${stderr}\n${stdout}`, key));
        },
      );
      // debsign asks on stdin whether to keep a signature (not with --re-sign): never wait.
      child.stdin?.end();
    });
}

/** What a failed debsign (or the gpg it ran) means, from its exit and what it wrote. */
export function debsignFailure(
  error: Error & { code?: unknown; killed?: boolean; signal?: unknown },
  output: string,
  key: string,
): DebusineError {
  const details = {
    rule: 'debsign',
    key,
    exit: typeof error.code === 'number' ? error.code : null,
  };
  if (error.code === 'ENOENT') {
    return new DebusineError(
      'unsupported',
      'debsign is not installed: install the package devscripts to sign uploads here.',
      { ...details, rule: 'signing.no-debsign' },
    );
  }
  const said = lastLines(output);
  const nothing = 'nothing was uploaded.';
  if (/Operation cancelled|Cancelled|canceled/i.test(output)) {
    return new DebusineError('cancelled', `Signing was cancelled; ${nothing}`, {
      ...details,
      rule: 'debsign.cancelled',
    });
  }
  if (/Bad passphrase/i.test(output)) {
    return new DebusineError('validation', `gpg refused the passphrase of key ${key}; ${nothing}`, {
      ...details,
      rule: 'debsign.bad-passphrase',
    });
  }
  if (/No pinentry/i.test(output)) {
    return new DebusineError(
      'unsupported',
      'gpg-agent could not ask for the passphrase (it has no pinentry program it can show ' +
        `here): install pinentry-gnome3 or pinentry-qt; ${nothing}`,
      { ...details, rule: 'debsign.no-pinentry' },
    );
  }
  if (/No secret key/i.test(output)) {
    return new DebusineError(
      'validation',
      `gpg has no secret key ${key} to sign with; ${nothing}`,
      { ...details, rule: 'debsign.no-secret-key' },
    );
  }
  if (error.killed === true || /\bTimeout\b/i.test(output)) {
    return new DebusineError(
      'timeout',
      `The passphrase was not given in time; signing stopped, and ${nothing}`,
      { ...details, rule: 'debsign.timeout' },
    );
  }
  const status = typeof error.code === 'number' ? `exit status ${String(error.code)}` : 'failed';
  return new DebusineError(
    'validation',
    `debsign failed (${status}): ${said || error.message}; ${nothing}`,
    { ...details, rule: 'debsign' },
  );
}
