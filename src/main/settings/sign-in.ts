/**
 * Signing in to a server profile with a token. The server silently treats a bad token as
 * anonymous, so a token is only stored after whoami accepts it, and it is stored for the
 * origin of the address that accepted it.
 */
import { DebusineClient } from '../api/client';
import type { DebusineClientOptions } from '../api/client';
import type { ServerProfile } from './profiles';
import { checkToken, tokenOriginOf, type TokenStore } from './token-store';

export interface SignedIn {
  profileId: string;
  user: string;
}

export type ClientFactory = (options: DebusineClientOptions) => DebusineClient;

const defaultFactory: ClientFactory = (options) => new DebusineClient(options);

/** Checks `token` against the profile's server, then stores it. Returns the user name. */
export async function signIn(options: {
  profile: ServerProfile;
  token: string;
  tokens: TokenStore;
  createClient?: ClientFactory;
}): Promise<SignedIn> {
  const token = options.token.trim();
  checkToken(token);
  const user = await verifyToken(options.profile, token, options.createClient);
  await options.tokens.set(options.profile.id, token, options.profile.apiUrl);
  return { profileId: options.profile.id, user };
}

/** whoami with this token; an `auth` DebusineError when the server does not accept it. */
export async function verifyToken(
  profile: Pick<ServerProfile, 'apiUrl' | 'scope'>,
  token: string,
  createClient: ClientFactory = defaultFactory,
): Promise<string> {
  const client = createClient({ apiUrl: profile.apiUrl, scope: profile.scope, token });
  try {
    return (await client.checkToken()).user;
  } finally {
    await client.close();
  }
}

/**
 * Who the stored token signs in as, or undefined when there is no token for the profile's
 * origin (one stored for another origin is never sent to this one).
 */
export async function currentUser(
  profile: ServerProfile,
  tokens: TokenStore,
  createClient?: ClientFactory,
): Promise<string | undefined> {
  const stored = await tokens.get(profile.id);
  if (stored?.origin !== tokenOriginOf(profile.apiUrl)) return undefined;
  return verifyToken(profile, stored.token, createClient);
}

export async function signOut(profileId: string, tokens: TokenStore): Promise<void> {
  await tokens.delete(profileId);
}
