/**
 * The active server profile and its client, on top of ProfileStore and a TokenStore.
 * `active()` and `client()` are synchronous (the handlers call them on every request), so
 * the profile list and the active profile's client are cached here and rebuilt whenever
 * the store reports a change or a token is stored or removed.
 *
 * A profile's token is its own only while the profile's address keeps the origin the token
 * was stored for: a client gets the token together with that stored origin (so its
 * transport refuses any other), and a token whose origin no longer matches its profile is
 * deleted here, whatever left it behind (a sign-in or enrollment that ended after the
 * address changed, a profile removed and added again under the same id).
 */
import { EventEmitter } from 'node:events';
import { DebusineClient, type DebusineClientOptions } from '../api/client';
import type { ServerProfile as StoredProfile, ProfileStore } from '../settings/profiles';
import { tokenOriginOf, type StoredToken, type TokenStore } from '../settings/token-store';
import type { ServerProfile, ServerSummary } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import type { SessionProvider } from './session';

export type ClientFactory = (options: DebusineClientOptions) => DebusineClient;

/** A token whose origin is known: the one origin it may be sent to. */
type BoundToken = StoredToken & { origin: string };

export interface ProfileSessionEvents {
  /** The active profile, its token, or the profile list changed. */
  changed: [];
}

export class ProfileSession extends EventEmitter<ProfileSessionEvents> implements SessionProvider {
  readonly profiles: ProfileStore;
  readonly tokens: TokenStore;
  readonly #createClient: ClientFactory;
  #list: StoredProfile[] = [];
  #activeId: string | null = null;
  #withToken = new Set<string>();
  #client: DebusineClient | undefined;
  #clientKey = '';
  #refreshing: Promise<void> = Promise.resolve();
  /** Why the active profile's stored token could not be read at the last refresh. */
  #unreadable: DebusineError | undefined;
  #rereading = false;

  constructor(
    profiles: ProfileStore,
    tokens: TokenStore,
    createClient: ClientFactory = (o) => new DebusineClient(o),
  ) {
    super();
    this.profiles = profiles;
    this.tokens = tokens;
    this.#createClient = createClient;
    profiles.on('changed', () => {
      void this.refresh();
    });
  }

  /** Re-reads profiles and tokens; serialised so concurrent refreshes end in order. */
  refresh(): Promise<void> {
    this.#refreshing = this.#refreshing.then(() => this.#reload()).catch(() => undefined);
    return this.#refreshing;
  }

  async #reload(): Promise<void> {
    const file = await this.profiles.load();
    const withToken = new Set<string>();
    for (const p of file.profiles) if (await this.#ownToken(p)) withToken.add(p.id);
    this.#list = file.profiles;
    this.#activeId = file.active;
    this.#withToken = withToken;
    const active = this.activeProfile();
    let token: BoundToken | undefined;
    try {
      token = active ? await this.#tokenOf(active) : undefined;
      this.#unreadable = undefined;
    } catch (error) {
      // The token is stored but cannot be read now (a locked keyring): no client, neither
      // the last profile's nor one without the token; requests say why (client()).
      this.#unreadable =
        error instanceof DebusineError
          ? error
          : new DebusineError('internal', 'The token cannot be read', {}, error);
      const old = this.#client;
      this.#client = undefined;
      this.#clientKey = '';
      void old?.close();
      throw error;
    }
    const key = active
      ? `${active.id}|${active.apiUrl}|${active.scope}|${token?.origin ?? ''}|${token?.token ?? ''}`
      : '';
    if (key !== this.#clientKey) {
      const old = this.#client;
      this.#client = active === undefined ? undefined : this.#clientOf(active, token);
      this.#clientKey = key;
      void old?.close();
    }
    this.emit('changed');
  }

  /**
   * Whether the profile's token was stored for the profile's origin. One stored before
   * origins were kept is bound to the profile's origin now: it is where this app sent it
   * all along. One stored for another origin is deleted. A token that cannot be bound or
   * deleted (a keyring that is not available) counts as none: it is not sent anywhere, and
   * one profile's store trouble does not stop the others from loading.
   */
  async #ownToken(profile: StoredProfile): Promise<boolean> {
    try {
      const stored = await this.tokens.originOf(profile.id);
      if (stored === undefined) return false;
      const origin = tokenOriginOf(profile.apiUrl);
      if (stored === origin) return true;
      if (stored === null) {
        const legacy = await this.tokens.get(profile.id);
        if (legacy?.origin !== null) return false;
        await this.tokens.set(profile.id, legacy.token, origin);
        return true;
      }
      await this.tokens.delete(profile.id);
      return false;
    } catch {
      return false;
    }
  }

  /** The profile's token when it was stored for the profile's origin. */
  async #tokenOf(profile: StoredProfile): Promise<BoundToken | undefined> {
    const stored = await this.tokens.get(profile.id);
    if (stored?.origin !== tokenOriginOf(profile.apiUrl)) return undefined;
    return { token: stored.token, origin: stored.origin };
  }

  #clientOf(profile: StoredProfile, token: BoundToken | undefined) {
    return this.#createClient({
      apiUrl: profile.apiUrl,
      scope: profile.scope,
      ...(token ? { token: token.token, tokenOrigin: token.origin } : {}),
    });
  }

  /** The token of a profile, only when it was stored for the profile's present origin. */
  async tokenFor(id: string): Promise<StoredToken | undefined> {
    return this.#tokenOf(this.profile(id));
  }

  activeProfile(): StoredProfile | undefined {
    return this.#list.find((p) => p.id === this.#activeId);
  }

  profile(id: string): StoredProfile {
    const found = this.#list.find((p) => p.id === id);
    if (!found) throw new DebusineError('not-found', `No server profile ${JSON.stringify(id)}`);
    return found;
  }

  hasToken(id: string): boolean {
    return this.#withToken.has(id);
  }

  summary(profile: StoredProfile): ServerSummary {
    return {
      id: profile.id,
      name: profile.name,
      apiUrl: profile.apiUrl,
      scope: profile.scope,
      defaultWorkspace: profile.defaultWorkspace,
      hasToken: this.hasToken(profile.id),
    };
  }

  profileView(profile: StoredProfile): ServerProfile {
    const site = new URL(profile.apiUrl);
    site.pathname = site.pathname.replace(/\/api\/?$/, '') || '/';
    return {
      ...this.summary(profile),
      webUrl: site.toString().replace(/\/+$/, ''),
      active: profile.id === this.#activeId,
    };
  }

  list(): ServerProfile[] {
    return this.#list.map((p) => this.profileView(p));
  }

  active(): ServerSummary | null {
    const profile = this.activeProfile();
    return profile ? this.summary(profile) : null;
  }

  client(): DebusineClient {
    if (this.#client === undefined) {
      if (this.#unreadable) {
        // Not "no server": why the token could not be read (the keyring is locked: unlock
        // it, then retry). It is read again meanwhile, so that the retry finds it.
        this.#readAgain();
        throw this.#unreadable;
      }
      throw new DebusineError('auth', 'No Debusine server is configured yet.');
    }
    return this.#client;
  }

  /** One re-read at a time, however many requests ask for the client meanwhile. */
  #readAgain(): void {
    if (this.#rereading) return;
    this.#rereading = true;
    // A keyring still locked fails the re-read as it failed before: #unreadable says so to
    // the next request, and nothing is left to reject unheard.
    void this.refresh()
      .catch(() => undefined)
      .finally(() => {
        this.#rereading = false;
      });
  }

  /** A short-lived client for another profile (servers.check); the caller closes it. */
  async clientFor(id: string): Promise<DebusineClient> {
    const profile = this.profile(id);
    return this.#clientOf(profile, await this.#tokenOf(profile));
  }

  async close(): Promise<void> {
    await this.#client?.close();
    this.#client = undefined;
    this.#clientKey = '';
  }
}
