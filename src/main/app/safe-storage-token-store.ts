/**
 * The desktop app's token store: each token encrypted with Electron's safeStorage
 * (asynchronous API), the ciphertexts in `{dataDir}/tokens.keyring.json` (0600).
 *
 * Whether that protects anything is learnt from what the API really does, not from what
 * it is expected to do. On Linux `isAsyncEncryptionAvailable()` is true even with no
 * keyring, since a fallback with a fixed key is always there, and
 * `getSelectedStorageBackend()` is the synchronous API's guess from the desktop's name,
 * not what the asynchronous API uses. What it uses shows in its ciphertext: Chromium tags
 * each one with the key that made it, `v11` for the key the Secret Service (GNOME
 * Keyring, KWallet) keeps, `v10` for the fixed one. So the store encrypts a probe the
 * first time it is used and reads the tag; anything else is not called secure.
 *
 * Nothing happens at construction: the first use waits for the keyring (which may ask
 * the user to unlock it), and the window does not.
 */
import { join } from 'node:path';
import { safeStorage } from 'electron';
import { DebusineError } from '../../shared/errors';
import {
  FileTokenStore,
  SecretFileStore,
  type StoredToken,
  type TokenStore,
  type TokenStoreInfo,
} from '../settings/token-store';

/** What protects the tokens here, as the probe found it. */
export type Protection =
  /** A key the keyring keeps (macOS Keychain, Windows DPAPI, the Secret Service). */
  | 'keyring'
  /** Linux's fallback: a key written in Chromium's source, the same everywhere. */
  | 'fixed-key'
  /** A tag this app does not know: it says nothing about who can read the tokens. */
  | 'unknown'
  /** safeStorage cannot encrypt at all: a plain 0600 file instead. */
  | 'none';

const KEYRING_TAG = 'v11';
const FIXED_KEY_TAG = 'v10';

const KEYRING_HINT =
  'To have them encrypted with a key only your session can use, start a keyring (GNOME Keyring, KWallet or another Secret Service) and restart Debusine Desktop.';

/** What encrypting a probe with the asynchronous API shows about its key. */
export async function probeProtection(platform = process.platform): Promise<Protection> {
  if (!(await safeStorage.isAsyncEncryptionAvailable().catch(() => false))) return 'none';
  if (platform === 'darwin' || platform === 'win32') return 'keyring';
  const tag = (await safeStorage.encryptStringAsync('probe')).subarray(0, 3).toString('latin1');
  if (tag === KEYRING_TAG) return 'keyring';
  if (tag === FIXED_KEY_TAG) return 'fixed-key';
  return 'unknown';
}

export function describeProtection(
  protection: Protection,
  file: string,
  platform = process.platform,
): TokenStoreInfo {
  switch (protection) {
    case 'keyring':
      return {
        kind: 'keyring',
        description:
          platform === 'darwin'
            ? 'encrypted with a key the macOS Keychain keeps'
            : platform === 'win32'
              ? 'encrypted with Windows Data Protection (DPAPI)'
              : 'encrypted with a key your keyring keeps (the Secret Service: GNOME Keyring, KWallet or another)',
        secure: true,
      };
    case 'fixed-key':
      return {
        kind: 'file',
        description: `stored with a fixed key: anyone with your files can read it, as with a plain file only you can read (${file}). No keyring answered. ${KEYRING_HINT}`,
        secure: false,
      };
    case 'unknown':
      return {
        kind: 'keyring',
        description: `encrypted by Electron with a key it does not name (${file}), so the app cannot tell who else could read it. ${KEYRING_HINT}`,
        secure: false,
      };
    case 'none':
      return {
        kind: 'file',
        description: `not encrypted: in a file only you can read (${file}), which anyone with your files can read. ${KEYRING_HINT}`,
        secure: false,
      };
  }
}

/** Where the tokens go once the probe has decided. */
type TokenFile = Omit<TokenStore, 'info'>;

interface Decision {
  store: TokenFile;
  info: TokenStoreInfo;
}

/**
 * How long to wait before each new attempt at a decryption the keyring could not do yet:
 * about a second and a half in all, long enough for a keyring that is being unlocked, short
 * enough for the page that waits on the token.
 */
export const LOCKED_RETRY_DELAYS_MS: readonly number[] = [100, 300, 1_000];

export class SafeStorageTokenStore implements TokenStore {
  readonly #dataDir: string;
  readonly #retryDelaysMs: readonly number[];
  #decision: Promise<Decision> | undefined;

  constructor(dataDir: string, retryDelaysMs: readonly number[] = LOCKED_RETRY_DELAYS_MS) {
    this.#dataDir = dataDir;
    this.#retryDelaysMs = retryDelaysMs;
  }

  /** Probes on first use, once; later uses share the answer. */
  #decide(): Promise<Decision> {
    this.#decision ??= probeProtection().then((protection): Decision => {
      if (protection === 'none') {
        const store = new FileTokenStore(this.#dataDir);
        return { store, info: describeProtection(protection, store.path) };
      }
      const path = join(this.#dataDir, 'tokens.keyring.json');
      return {
        store: encryptedStore(path, this.#retryDelaysMs),
        info: describeProtection(protection, path),
      };
    });
    return this.#decision;
  }

  async info(): Promise<TokenStoreInfo> {
    return (await this.#decide()).info;
  }

  async get(profileId: string): Promise<StoredToken | undefined> {
    return (await this.#decide()).store.get(profileId);
  }

  async originOf(profileId: string): Promise<string | null | undefined> {
    return (await this.#decide()).store.originOf(profileId);
  }

  async set(profileId: string, token: string, server: string): Promise<void> {
    await (await this.#decide()).store.set(profileId, token, server);
  }

  async delete(profileId: string): Promise<void> {
    await (await this.#decide()).store.delete(profileId);
  }

  async has(profileId: string): Promise<boolean> {
    return (await this.#decide()).store.has(profileId);
  }
}

/**
 * What safeStorage rejects with when the key the ciphertext needs cannot be had now but may
 * be later, a locked keyring (electron_api_safe_storage.cc, where the decryptor sets
 * `temporarily_unavailable`): "safeStorage.decryptStringAsync is temporarily unavailable.
 * Please try again."
 */
function isTemporarilyUnavailable(error: unknown): boolean {
  return error instanceof Error && error.message.includes('is temporarily unavailable');
}

/**
 * Decrypts, trying again after each delay while the keyring says it cannot now. A keyring
 * that stays locked is said to be so: the token is still there and still good, so neither
 * signing in again nor deleting it is the remedy.
 */
async function decryptRetrying(
  ciphertext: Buffer,
  retryDelaysMs: readonly number[],
): Promise<Electron.DecryptStringAsyncReturnValue> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await safeStorage.decryptStringAsync(ciphertext);
    } catch (error) {
      const delay = retryDelaysMs[attempt];
      if (!isTemporarilyUnavailable(error)) {
        throw new DebusineError(
          'auth',
          'The token cannot be decrypted: the key it was stored with is not available now (was the keyring it was kept in stopped?). Start the keyring and restart Debusine Desktop, or sign in again.',
          { cause: String(error) },
        );
      }
      if (delay === undefined) {
        // Not 'auth': the page would offer to sign in, which is not what is needed.
        throw new DebusineError(
          'internal',
          'Your keyring is locked, so the token kept in it cannot be read. Unlock the keyring (GNOME Keyring, KWallet or the one your desktop uses), then retry.',
          { cause: String(error) },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** The ciphertexts of safeStorage's asynchronous API in one SecretFileStore. */
function encryptedStore(path: string, retryDelaysMs: readonly number[]): TokenFile {
  return new SecretFileStore(path, {
    encode: async (token) => (await safeStorage.encryptStringAsync(token)).toString('base64'),
    decode: async (stored) => {
      const { result, shouldReEncrypt } = await decryptRetrying(
        Buffer.from(stored, 'base64'),
        retryDelaysMs,
      );
      // True when the data "should be re-encrypted, as the key has been rotated or a new
      // key is available that provides a different security level" (a keyring answers
      // now where the fixed key was used): the file store writes it anew.
      return { token: result, reEncode: shouldReEncrypt };
    },
  });
}
