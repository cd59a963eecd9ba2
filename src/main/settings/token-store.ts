/**
 * Where API tokens live. They stay in the main process: nothing here returns a token to
 * anything but the code that builds request headers, and no message or error carries one.
 *
 * A token belongs to the origin (scheme, host and port) of the server that issued it, and
 * is stored with it: whoever reads a token also learns the one origin it may be sent to,
 * and the transports (api/http.ts, the completion websocket) refuse any other. A profile
 * whose address moves to another origin therefore cannot carry its token along.
 *
 * Two implementations share one file format (a JSON map profile id → origin and secret):
 * - FileTokenStore (here): the web host's store, a file only the user may read (0600);
 * - SafeStorageTokenStore (src/main/app/): the desktop app's store, each token encrypted
 *   with Electron's safeStorage, whose key lives in the OS keyring when one answers.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { DebusineError } from '../../shared/errors';
import { readJsonFile, SerialQueue, writeJsonFile } from '../json-file';

export type TokenStoreKind = 'keyring' | 'file';

/** What the UI shows about the token store ("Tokens are kept in …"). */
export interface TokenStoreInfo {
  kind: TokenStoreKind;
  /** A sentence for the settings page, e.g. "the GNOME keyring (libsecret)". */
  description: string;
  /** False when the store cannot protect tokens well (safeStorage's basic_text backend). */
  secure: boolean;
}

/** A token and the origin it was stored for (null: stored before origins were kept). */
export interface StoredToken {
  token: string;
  origin: string | null;
}

export interface TokenStore {
  /** A store that learns what protects the tokens only when it first uses them may wait. */
  info(): TokenStoreInfo | Promise<TokenStoreInfo>;
  get(profileId: string): Promise<StoredToken | undefined>;
  /**
   * The origin the profile's token was stored for, without decoding the token: undefined
   * when there is no token, null when it was stored before origins were kept.
   */
  originOf(profileId: string): Promise<string | null | undefined>;
  /** Stores the token for the origin of `server` (an API URL or an origin). */
  set(profileId: string, token: string, server: string): Promise<void>;
  delete(profileId: string): Promise<void>;
  /** Whether the profile has a token, for whichever origin. */
  has(profileId: string): Promise<boolean>;
}

/** `scheme://host:port` of an http(s) URL, as URL normalises it (lower case, no default port). */
export function tokenOriginOf(server: string): string {
  const url = URL.canParse(server) ? new URL(server) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new DebusineError('validation', 'A token is stored for an http(s) server address', {
      field: 'apiUrl',
    });
  }
  return url.origin;
}

/** How a token is turned into what is written to disk, and back. */
export interface SecretCodec {
  encode(token: string): Promise<string>;
  /** The token, and whether encode() would now store it differently (a newer key). */
  decode(stored: string): Promise<{ token: string; reEncode: boolean }>;
}

const entrySchema = z.object({ origin: z.string().nullable(), secret: z.string() });
type Entry = z.infer<typeof entrySchema>;
/**
 * Version 1 kept the encoded token alone; version 2 keeps the origin beside it. A version 1
 * entry reads with the origin null, which no transport accepts until it is bound (see
 * ProfileSession), and is rewritten as version 2 by the next change to the file.
 */
const secretFileSchema = z.union([
  z.object({ version: z.literal(2), tokens: z.record(z.string(), entrySchema) }),
  z
    .object({ version: z.literal(1), tokens: z.record(z.string(), z.string()) })
    .transform(({ tokens }) => ({
      version: 2 as const,
      tokens: Object.fromEntries(
        Object.entries(tokens).map(([id, secret]): [string, Entry] => [
          id,
          { origin: null, secret },
        ]),
      ),
    })),
]);
type SecretFile = z.output<typeof secretFileSchema>;

/** The JSON map of profile id → origin and encoded token, shared by both stores. */
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
    if (raw === undefined) return { version: 2, tokens: {} };
    const parsed = secretFileSchema.safeParse(raw);
    if (!parsed.success) {
      throw new DebusineError('validation', `The token file ${this.path} is damaged`, {
        file: this.path,
      });
    }
    return parsed.data;
  }

  async get(profileId: string): Promise<StoredToken | undefined> {
    const stored = (await this.#read()).tokens[profileId];
    if (stored === undefined) return undefined;
    const { token, reEncode } = await this.#codec.decode(stored.secret);
    if (reEncode) {
      // The token reads as it is, so a failure to store it anew changes nothing.
      await this.#reEncode(profileId, stored.secret, token).catch((error: unknown) => {
        console.warn(`Could not store the token of ${profileId} anew: ${String(error)}`);
      });
    }
    return { token, origin: stored.origin };
  }

  /** Writes the token again with the codec's current key, unless it changed meanwhile. */
  #reEncode(profileId: string, secret: string, token: string): Promise<void> {
    return this.#queue.run(async () => {
      const file = await this.#read();
      const entry = file.tokens[profileId];
      if (entry?.secret !== secret) return;
      entry.secret = await this.#codec.encode(token);
      await writeJsonFile(this.path, file, 0o600);
    });
  }

  async originOf(profileId: string): Promise<string | null | undefined> {
    return (await this.#read()).tokens[profileId]?.origin;
  }

  async has(profileId: string): Promise<boolean> {
    return (await this.#read()).tokens[profileId] !== undefined;
  }

  async set(profileId: string, token: string, server: string): Promise<void> {
    checkToken(token);
    const origin = tokenOriginOf(server);
    await this.#queue.run(async () => {
      const file = await this.#read();
      file.tokens[profileId] = { origin, secret: await this.#codec.encode(token) };
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
  decode: (stored) => Promise.resolve({ token: stored, reEncode: false }),
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

  get(profileId: string): Promise<StoredToken | undefined> {
    return this.file.get(profileId);
  }

  originOf(profileId: string): Promise<string | null | undefined> {
    return this.file.originOf(profileId);
  }

  set(profileId: string, token: string, server: string): Promise<void> {
    return this.file.set(profileId, token, server);
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
