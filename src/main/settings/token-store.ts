/**
 * Where API tokens live. They stay in the main process: nothing here returns a token to
 * anything but the code that builds request headers, and no message or error carries one.
 *
 * Two implementations share one file format (a JSON map profile id → stored secret):
 * - FileTokenStore (here): the web host's store, a file only the user may read (0600);
 * - SafeStorageTokenStore (src/main/app/): the desktop app's store, each token encrypted
 *   with Electron's safeStorage, whose key lives in the OS keyring.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { DebusineError } from '../../shared/errors';
import { readJsonFile, SerialQueue, writeJsonFile } from './json-file';

export type TokenStoreKind = 'keyring' | 'file';

/** What the UI shows about the token store ("Tokens are kept in …"). */
export interface TokenStoreInfo {
  kind: TokenStoreKind;
  /** A sentence for the settings page, e.g. "the GNOME keyring (libsecret)". */
  description: string;
  /** False when the store cannot protect tokens well (safeStorage's basic_text backend). */
  secure: boolean;
}

export interface TokenStore {
  info(): TokenStoreInfo;
  get(profileId: string): Promise<string | undefined>;
  set(profileId: string, token: string): Promise<void>;
  delete(profileId: string): Promise<void>;
  has(profileId: string): Promise<boolean>;
}

/** How a token is turned into what is written to disk, and back. */
export interface SecretCodec {
  encode(token: string): Promise<string>;
  decode(stored: string): Promise<string>;
}

const secretFileSchema = z.object({
  version: z.literal(1),
  tokens: z.record(z.string(), z.string()),
});
type SecretFile = z.infer<typeof secretFileSchema>;

/** The JSON map of profile id → encoded token, shared by both stores. */
export class SecretFileStore {
  readonly path: string;
  readonly #codec: SecretCodec;
  readonly #queue = new SerialQueue();

  constructor(path: string, codec: SecretCodec) {
    this.path = path;
    this.#codec = codec;
  }

  async #read(): Promise<SecretFile> {
    const raw = await readJsonFile(this.path);
    if (raw === undefined) return { version: 1, tokens: {} };
    const parsed = secretFileSchema.safeParse(raw);
    if (!parsed.success) {
      throw new DebusineError('validation', `The token file ${this.path} is damaged`, {
        file: this.path,
      });
    }
    return parsed.data;
  }

  async get(profileId: string): Promise<string | undefined> {
    const stored = (await this.#read()).tokens[profileId];
    return stored === undefined ? undefined : this.#codec.decode(stored);
  }

  async has(profileId: string): Promise<boolean> {
    return (await this.#read()).tokens[profileId] !== undefined;
  }

  async set(profileId: string, token: string): Promise<void> {
    checkToken(token);
    await this.#queue.run(async () => {
      const file = await this.#read();
      file.tokens[profileId] = await this.#codec.encode(token);
      await writeJsonFile(this.path, file, 0o600);
    });
  }

  delete(profileId: string): Promise<void> {
    return this.#queue.run(async () => {
      const file = await this.#read();
      if (!(profileId in file.tokens)) return;
      // Rebuilding the map drops the key without a dynamic `delete`.
      file.tokens = Object.fromEntries(
        Object.entries(file.tokens).filter(([id]) => id !== profileId),
      );
      await writeJsonFile(this.path, file, 0o600);
    });
  }
}

/** Tokens must be header-safe; the message never repeats the value. */
export function checkToken(token: string): void {
  if (!/^[\x21-\x7e]{1,512}$/.test(token)) {
    throw new DebusineError(
      'validation',
      'The token is not valid: it must be one word of printable ASCII characters',
      { field: 'token' },
    );
  }
}

const identity: SecretCodec = {
  encode: (token) => Promise.resolve(token),
  decode: (stored) => Promise.resolve(stored),
};

/**
 * A token store whose tokens live in one SecretFileStore; a subclass picks the file and how
 * tokens are encoded in it, and says what it is.
 */
export abstract class SecretFileTokenStore implements TokenStore {
  protected readonly file: SecretFileStore;

  protected constructor(path: string, codec: SecretCodec) {
    this.file = new SecretFileStore(path, codec);
  }

  abstract info(): TokenStoreInfo;

  get(profileId: string): Promise<string | undefined> {
    return this.file.get(profileId);
  }

  set(profileId: string, token: string): Promise<void> {
    return this.file.set(profileId, token);
  }

  delete(profileId: string): Promise<void> {
    return this.file.delete(profileId);
  }

  has(profileId: string): Promise<boolean> {
    return this.file.has(profileId);
  }
}

/** The web host's store: plain tokens in `{dataDir}/tokens.json`, mode 0600. */
export class FileTokenStore extends SecretFileTokenStore {
  constructor(dataDir: string) {
    super(join(dataDir, 'tokens.json'), identity);
  }

  get path(): string {
    return this.file.path;
  }

  info(): TokenStoreInfo {
    return {
      kind: 'file',
      description: `a file only you can read (${this.file.path})`,
      secure: true,
    };
  }
}
