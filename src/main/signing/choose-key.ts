/**
 * Which secret key signs, as debsign would pick it, made explicit so that debsign is always
 * run with `-k<fingerprint>`: the key the user chose; else DEBSIGN_KEYID from the
 * devscripts files; else the key of DEBSIGN_MAINT, or of the .changes' Changed-By (its
 * Maintainer without one), as debsign guesses when given no key; else the only secret
 * key. With several keys and none of those, the user chooses (debsign would leave it to
 * gpg's first match, which the user never sees). The key chosen is always passed: what
 * debsign would have guessed never decides alone.
 */
import type { SigningKey } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import type { DebsignConfig } from './devscripts-config';
import { emailOf, type SecretKey } from './gpg-keys';

export type KeyChoice =
  { key: SecretKey; reason: string } | { choose: SecretKey[]; reason: string };

export interface KeyChoiceInput {
  keys: readonly SecretKey[];
  /** The fingerprint the user chose, if any. */
  requested?: string | undefined;
  config: DebsignConfig;
  /** The .changes' Changed-By and Maintainer fields (when it has them). */
  changedBy?: string | undefined;
  maintainer?: string | undefined;
}

/** The contract's view of a key: no matching data. */
export function summary(key: SecretKey): SigningKey {
  return { fingerprint: key.fingerprint, keyId: key.keyId, userIds: [...key.userIds] };
}

export function noSecretKey(): DebusineError {
  return new DebusineError(
    'validation',
    'gpg lists no secret key that can sign. Create your key (gpg --full-generate-key) or ' +
      'import it (gpg --import), then sign again; nothing was uploaded.',
    { rule: 'signing.no-secret-key' },
  );
}

/** The key the user chose, which must be one of the listed secret keys. */
export function requestedKey(keys: readonly SecretKey[], fingerprint: string): SecretKey {
  const key = keys.find((k) => k.fingerprint === fingerprint.toUpperCase());
  if (!key) {
    throw new DebusineError(
      'validation',
      `The key ${fingerprint} is not one of your secret keys (gpg --list-secret-keys); ` +
        'nothing was signed.',
      { rule: 'signing.unknown-key', key: fingerprint },
    );
  }
  return key;
}

/**
 * The keys a DEBSIGN_KEYID names, as gpg's --local-user reads it: a key id or fingerprint
 * (0x and blanks allowed, `!` pins a subkey) matches the end of a key's or signing
 * subkey's fingerprint; `<address>` or an address matches a user id's address; any other
 * text matches user ids that contain it, case aside.
 */
export function keysNamedBy(keys: readonly SecretKey[], spec: string): SecretKey[] {
  const compact = spec.replace(/\s+/g, '').replace(/^0x/i, '').replace(/!$/, '').toUpperCase();
  if (/^[0-9A-F]{8,64}$/.test(compact)) {
    return keys.filter((k) =>
      [k.fingerprint, ...k.signingSubkeys].some((f) => f.endsWith(compact)),
    );
  }
  const trimmed = spec.trim();
  const address =
    /^<([^<>\s]+@[^<>\s]+)>$/.exec(trimmed)?.[1] ??
    (/^[^<>\s]+@[^<>\s]+$/.test(trimmed) ? trimmed : undefined);
  if (address !== undefined) {
    return keys.filter((k) => k.emails.includes(address.toLowerCase()));
  }
  const needle = trimmed.toLowerCase();
  return keys.filter((k) => k.userIds.some((u) => u.toLowerCase().includes(needle)));
}

function label(key: SecretKey): string {
  return key.userIds[0] ?? key.fingerprint;
}

export function chooseKey(input: KeyChoiceInput): KeyChoice {
  const { keys, config } = input;
  if (keys.length === 0) throw noSecretKey();
  if (input.requested !== undefined) {
    return { key: requestedKey(keys, input.requested), reason: 'the key you chose' };
  }
  const configured = config.DEBSIGN_KEYID;
  if (configured) {
    const where = `DEBSIGN_KEYID in ${configured.file}`;
    const named = keysNamedBy(keys, configured.value);
    const [only] = named;
    if (only && named.length === 1) return { key: only, reason: where };
    if (named.length > 1) {
      return {
        choose: named,
        reason: `${where} (${configured.value}) names ${String(named.length)} of your secret keys: choose one.`,
      };
    }
    throw new DebusineError(
      'validation',
      `${where} (line ${String(configured.line)}) is ${configured.value}, which names none of ` +
        'your secret keys; nothing was signed. Correct it, or remove it and choose the key here.',
      { rule: 'signing.configured-key-missing', file: configured.file, key: configured.value },
    );
  }
  const maint = config.DEBSIGN_MAINT;
  const [signas, field] = maint
    ? [maint.value, `DEBSIGN_MAINT in ${maint.file}`]
    : input.changedBy
      ? [input.changedBy, 'the uploader (Changed-By)']
      : [input.maintainer, 'the maintainer (Maintainer)'];
  const address = signas === undefined ? undefined : emailOf(signas);
  if (address !== undefined) {
    const matching = keys.filter((k) => k.emails.includes(address));
    const [only] = matching;
    if (only && matching.length === 1) return { key: only, reason: `${field}: ${address}` };
    if (matching.length > 1) {
      return {
        choose: matching,
        reason: `Several of your secret keys are for ${address}, ${field}: choose one.`,
      };
    }
  }
  const [only] = keys;
  if (only && keys.length === 1) {
    return { key: only, reason: `your only secret key (${label(only)})` };
  }
  const count = String(keys.length);
  return {
    choose: [...keys],
    reason:
      address === undefined
        ? `You have ${count} secret keys and DEBSIGN_KEYID is not set: choose the key to sign with.`
        : `None of your ${count} secret keys is for ${address}, ${field}, and DEBSIGN_KEYID is ` +
          'not set: choose the key to sign with.',
  };
}
