/**
 * Which secret key debsign would sign a .changes with, as /usr/bin/debsign decides it
 * (its `guess_signas`): `${signkey:-$maintainer}` handed to `gpg --local-user`, where
 * signkey is DEBSIGN_KEYID from the devscripts files (or `-k`), and the maintainer is
 * DEBSIGN_MAINT (or `-m`/`-e`), else the .changes' Changed-By, else its Maintainer. So
 * DEBSIGN_KEYID wins whoever the .changes names, and without it debsign signs as the
 * uploader. There is no third way: debsign always names a user to gpg, and when gpg has no
 * secret key for it, gpg stops ("No secret key") rather than take its default key
 * (signing-key-choice.test.ts runs the real debsign to show it).
 *
 * The app then runs debsign with `-k<fingerprint>` of the key chosen here, so that what
 * signs is what the page showed. It differs from gpg's own matching in two ways, both said
 * in the reason: a maintainer is matched by the e-mail address in the field (gpg matches
 * the whole `Name <address>` text inside a user id, so a key whose name is written
 * differently is not found there), and where several keys match, the user chooses (gpg
 * would take the first in its keyring, which the user never sees).
 */
import type { SigningKey } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import { visibleText } from '../../shared/visible-text';
import { oneLine } from '../notify/needs-input-notification';
import type { DebsignConfig } from './devscripts-config';
import { emailOf, type SecretKey } from './gpg-keys';

/** What debsign's rules name for one .changes; exactly one key named is the key that signs. */
export interface KeyChoice {
  /** The secret keys the rule that applies names: none, one, or several. */
  named: SecretKey[];
  /**
   * Why that key, or why none or several, in a sentence or two that say which variable or
   * field was read, from where, and what it holds.
   */
  reason: string;
}

export interface KeyChoiceInput {
  keys: readonly SecretKey[];
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

/**
 * debsign refuses a DEBSIGN_KEYID of 8 letters or digits, a short key id, which another
 * key may share ("Refusing to sign with short key ID"); its very test.
 */
const SHORT_KEY_ID = /^(0x)?[a-zA-Z0-9]{8}$/;

/**
 * Text from a .changes (which the server sent) or a configuration file, quoted in a
 * reason: on one line, cut at 120 characters, and every character that would show nothing
 * or reorder the text around it (a bidirectional control) shown as a mark.
 */
function quoted(text: string): string {
  return `“${visibleText(oneLine(text))}”`;
}

/** DEBSIGN_KEYID is set: it alone decides, as in debsign. */
function byKeyId(
  keys: readonly SecretKey[],
  setting: NonNullable<DebsignConfig['DEBSIGN_KEYID']>,
): KeyChoice {
  const where = `DEBSIGN_KEYID in ${setting.file} (line ${String(setting.line)}) is ${quoted(setting.value)}`;
  if (SHORT_KEY_ID.test(setting.value)) {
    return {
      named: [],
      reason:
        `${where}, a short key id, which debsign refuses to sign with. Write the key's ` +
        'fingerprint there, or choose the key to sign with.',
    };
  }
  const named = keysNamedBy(keys, setting.value);
  if (named.length === 1) {
    return {
      named,
      reason: `${where}, which names this key; debsign signs with it whoever the .changes names.`,
    };
  }
  return {
    named,
    reason:
      named.length === 0
        ? `${where}, which names none of your secret keys: debsign would stop there ` +
          '(gpg: No secret key). Correct it, or choose the key to sign with.'
        : `${where}, which names ${String(named.length)} of your secret keys (gpg would take ` +
          'the first in its keyring): choose one.',
  };
}

/** Who debsign signs as without DEBSIGN_KEYID: the text, and where it was read. */
function maintainerOf(input: KeyChoiceInput): { value: string; from: string } | undefined {
  const maint = input.config.DEBSIGN_MAINT;
  if (maint) {
    return {
      value: maint.value,
      // debsign signs as DEBSIGN_MAINT in place of the .changes' Changed-By.
      from: `DEBSIGN_MAINT in ${maint.file} (line ${String(maint.line)})`,
    };
  }
  // debsign reads an empty field as none, and falls back to the next.
  const changedBy = input.changedBy?.trim();
  if (changedBy) return { value: changedBy, from: "the .changes' Changed-By (its uploader)" };
  const maintainer = input.maintainer?.trim();
  if (maintainer) {
    return { value: maintainer, from: "the .changes' Maintainer (it has no Changed-By)" };
  }
  return undefined;
}

/** The key debsign would use for a .changes with these fields; see the module's comment. */
export function chooseKey(input: KeyChoiceInput): KeyChoice {
  const { keys, config } = input;
  if (keys.length === 0) throw noSecretKey();
  if (config.DEBSIGN_KEYID) return byKeyId(keys, config.DEBSIGN_KEYID);
  const signas = maintainerOf(input);
  if (!signas) {
    return {
      named: [],
      reason:
        'The .changes has neither Changed-By nor Maintainer, and DEBSIGN_KEYID is not set: ' +
        'debsign would name no one to gpg, which refuses that (gpg: Invalid user ID). ' +
        'Choose the key to sign with.',
    };
  }
  const said = `${signas.from} is ${quoted(signas.value)}`;
  const address = emailOf(signas.value);
  if (address === undefined) {
    return {
      named: [],
      reason:
        `${said}, which holds no e-mail address, and DEBSIGN_KEYID is not set. Choose the ` +
        'key to sign with.',
    };
  }
  const named = keys.filter((k) => k.emails.includes(address));
  const forAddress = `your secret key for ${quoted(address)}`;
  if (named.length === 1) {
    return {
      named,
      reason: `It is ${forAddress}: ${said}, and DEBSIGN_KEYID is not set.`,
    };
  }
  return {
    named,
    reason:
      named.length === 0
        ? `None of your secret keys is for ${quoted(address)}: ${said}, ` +
          'and DEBSIGN_KEYID is not set, so debsign would stop there (gpg: No secret key). ' +
          'Choose the key to sign with, or name yours in DEBSIGN_KEYID (~/.devscripts).'
        : `${String(named.length)} of your secret keys are for ${quoted(address)}: ${said}, ` +
          'and DEBSIGN_KEYID is not set (gpg would take the first in its keyring): choose one.',
  };
}
