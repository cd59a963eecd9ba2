/**
 * The active server profile and its client, on top of ProfileStore and a TokenStore.
 * `active()` and `client()` are synchronous (the handlers call them on every request), so
 * the profile list and the active profile's client are cached here and rebuilt whenever
 * the store reports a change or a token is stored or removed.
 */
import { EventEmitter } from 'node:events';
import { DebusineClient, type DebusineClientOptions } from '../api/client';
import type { ServerProfile as StoredProfile, ProfileStore } from '../settings/profiles';
import type { TokenStore } from '../settings/token-store';
import type { ServerProfile, ServerSummary } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import type { SessionProvider } from './session';

export type ClientFactory = (options: DebusineClientOptions) => DebusineClient;

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
    for (const p of file.profiles) if (await this.tokens.has(p.id)) withToken.add(p.id);
    this.#list = file.profiles;
    this.#activeId = file.active;
    this.#withToken = withToken;
    const active = this.activeProfile();
    const token = active ? await this.tokens.get(active.id) : undefined;
    const key = active ? `${active.id}|${active.apiUrl}|${active.scope}|${token ?? ''}` : '';
    if (key !== this.#clientKey) {
      const old = this.#client;
      this.#client =
        active === undefined
          ? undefined
          : this.#createClient({ apiUrl: active.apiUrl, scope: active.scope, token });
      this.#clientKey = key;
      void old?.close();
    }
    this.emit('changed');
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
      throw new DebusineError('auth', 'No Debusine server is configured yet.');
    }
    return this.#client;
  }

  /** A short-lived client for another profile (servers.check); the caller closes it. */
  async clientFor(id: string): Promise<DebusineClient> {
    const profile = this.profile(id);
    const token = await this.tokens.get(id);
    return this.#createClient({ apiUrl: profile.apiUrl, scope: profile.scope, token });
  }

  async close(): Promise<void> {
    await this.#client?.close();
    this.#client = undefined;
    this.#clientKey = '';
  }
}
