/**
 * The user's OpenPGP secret keys, as `gpg --list-secret-keys --with-colons` lists them
 * (signing-keys.test.ts has such a listing, and signing-debsign.test.ts reads gpg's own):
 * the keys that can sign, with their user ids and the fingerprints of their signing
 * subkeys. Only these fingerprints ever
 * reach debsign's command line, so nothing the renderer sends becomes an argument.
 */
import { execFile } from 'node:child_process';
import type { SigningKey } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';

/** A secret key as the key choice needs it: the contract's shape, plus what it matches on. */
export interface SecretKey extends SigningKey {
  /** The e-mail addresses of its user ids, lower-cased. */
  emails: string[];
  /** Fingerprints of its subkeys that can sign (a DEBSIGN_KEYID may name one). */
  signingSubkeys: string[];
}

/** Validity letters of a key or user id that gpg will not sign with or as. */
const UNUSABLE = new Set(['i', 'd', 'r', 'e', 'n']);

/** `\x3a`-style escapes of a colon-listing field, as bytes decoded as UTF-8. */
function unescapeField(field: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < field.length;) {
    const hex = /^\\x([0-9a-fA-F]{2})/.exec(field.slice(i, i + 4));
    if (hex?.[1] !== undefined) {
      bytes.push(parseInt(hex[1], 16));
      i += 4;
    } else {
      for (const byte of Buffer.from(field.charAt(i), 'utf8')) bytes.push(byte);
      i++;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Whether `text` is one word of the form `local@domain` (no blank, `<` or `>`). */
function isAddress(text: string): boolean {
  return !/[\s<>]/.test(text) && text.slice(1, -1).includes('@');
}

/**
 * The address in `Name <address>` (the first `<…>` that holds one), or the whole text when
 * it is a bare address. By plain scans: the Changed-By it also reads comes from the
 * server, and a regular expression that backtracks (`<([^<>\s]+@[^<>\s]+)>`) takes
 * seconds on 60 kB of `<a@a@a@…`, with the whole of main waiting.
 */
export function emailOf(userId: string): string | undefined {
  // Each `<` starts one candidate, which ends at the next `<` or `>`: one pass in all.
  for (const [, inner = ''] of userId.matchAll(/<([^<>]*)>/g)) {
    if (isAddress(inner)) return inner.toLowerCase();
  }
  const bare = userId.trim();
  return isAddress(bare) ? bare.toLowerCase() : undefined;
}

interface Draft {
  key: SecretKey;
  /** Whether the primary key itself can sign and its secret part is here. */
  primarySigns: boolean;
  /** The record the next `fpr` line belongs to. */
  pending: 'sec' | { signs: boolean } | 'other';
  /** Whether the key as a whole can sign (an upper-case S on the `sec` line). */
  canSign: boolean;
}

/**
 * The keys of a `--with-colons --list-secret-keys` listing that can sign: not revoked,
 * expired or disabled, with a signing capability on the key, and a key (primary or subkey)
 * with that capability whose secret part is on this machine or its card.
 */
export function parseSecretKeys(listing: string): SecretKey[] {
  const keys: SecretKey[] = [];
  let draft: Draft | undefined;
  const finish = (): void => {
    if (!draft) return;
    const { key } = draft;
    const usable = draft.canSign && (draft.primarySigns || key.signingSubkeys.length > 0);
    if (usable && /^(?:[0-9A-F]{40}|[0-9A-F]{64})$/.test(key.fingerprint)) keys.push(key);
    draft = undefined;
  };
  for (const line of listing.split('\n')) {
    const f = line.replace(/\r$/, '').split(':');
    const type = f[0];
    const validity = f[1] ?? '';
    // Field 12: the capabilities; field 15: `#` when only a stub of the secret key is here.
    const caps = f[11] ?? '';
    const secretHere = (f[14] ?? '') !== '#';
    if (type === 'sec') {
      finish();
      draft = {
        key: { fingerprint: '', keyId: '', userIds: [], emails: [], signingSubkeys: [] },
        primarySigns: caps.includes('s') && secretHere && !UNUSABLE.has(validity),
        pending: 'sec',
        canSign: caps.includes('S') && !UNUSABLE.has(validity),
      };
      draft.key.keyId = (f[4] ?? '').toUpperCase();
    } else if (!draft) {
      continue;
    } else if (type === 'fpr') {
      const fingerprint = (f[9] ?? '').toUpperCase();
      if (draft.pending === 'sec') draft.key.fingerprint = fingerprint;
      else if (typeof draft.pending === 'object' && draft.pending.signs) {
        draft.key.signingSubkeys.push(fingerprint);
      }
      draft.pending = 'other';
    } else if (type === 'ssb') {
      draft.pending = {
        signs: caps.includes('s') && secretHere && !UNUSABLE.has(validity),
      };
    } else if (type === 'uid') {
      draft.pending = 'other';
      if (UNUSABLE.has(validity)) continue;
      const userId = unescapeField(f[9] ?? '');
      draft.key.userIds.push(userId);
      const email = emailOf(userId);
      if (email !== undefined) draft.key.emails.push(email);
    } else if (type === 'pub' || type === 'sub') {
      // A public-key listing mixed in: not a secret key.
      finish();
    }
  }
  finish();
  return keys;
}

/** What runs gpg: the real one by default, with the user's environment. */
export type ListSecretKeys = () => Promise<SecretKey[]>;

/** Lists the secret keys with `gpg` from `env`'s PATH, GNUPGHOME and agent. */
export function gpgSecretKeys(env: NodeJS.ProcessEnv = process.env): ListSecretKeys {
  return () =>
    new Promise((resolve, reject) => {
      const child = execFile(
        'gpg',
        ['--batch', '--no-tty', '--with-colons', '--fixed-list-mode', '--list-secret-keys'],
        {
          env,
          timeout: 60_000,
          maxBuffer: 8 * 1024 * 1024,
          shell: false,
          windowsHide: true,
          encoding: 'utf8',
        },
        (error, stdout, stderr) => {
          if (error) {
            const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
            reject(
              missing
                ? new DebusineError(
                    'unsupported',
                    'gpg is not installed: install the package gnupg to sign uploads here.',
                    { rule: 'signing.no-gpg' },
                  )
                : new DebusineError(
                    'internal',
                    `gpg could not list your secret keys: ${lastLines(stderr) || error.message}`,
                    { rule: 'signing.gpg-list' },
                  ),
            );
          } else {
            resolve(parseSecretKeys(stdout));
          }
        },
      );
      // Nothing to tell gpg; a prompt for input must not wait on a pipe nobody writes.
      child.stdin?.end();
    });
}

/** The last few lines a program wrote to stderr, as one line. */
export function lastLines(text: string, count = 3): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-count)
    .join(' ');
}
