/**
 * Enrollment for a server profile: obtain a token through the confirmation page, check it
 * with whoami, and store it for the origin that issued it (the profile's address when the
 * enrollment began). Only the outcome and the user name leave this function.
 */
import { DebusineError } from '../../shared/errors';
import type { ServerProfile } from '../settings/profiles';
import { verifyToken, type ClientFactory } from '../settings/sign-in';
import type { TokenStore } from '../settings/token-store';
import { requestToken, type RequestTokenOptions } from './enroll';

export type EnrollOutcome =
  | { outcome: 'confirm'; profileId: string; user: string }
  | { outcome: 'cancel'; profileId: string; message: string };

export interface EnrollProfileOptions extends Omit<RequestTokenOptions, 'apiUrl' | 'scope'> {
  profile: ServerProfile;
  tokens: TokenStore;
  createClient?: ClientFactory;
}

export async function enrollProfile(options: EnrollProfileOptions): Promise<EnrollOutcome> {
  const { profile, tokens, createClient, ...rest } = options;
  const answer = await requestToken({ ...rest, apiUrl: profile.apiUrl, scope: profile.scope });
  if (answer.outcome === 'cancel') {
    return {
      outcome: 'cancel',
      profileId: profile.id,
      message: 'The enrollment was cancelled on the confirmation page; no token was created.',
    };
  }
  let user: string;
  try {
    user = await verifyToken(profile, answer.token, createClient);
  } catch (error) {
    throw new DebusineError(
      'auth',
      'The server issued a token, but does not accept it for this profile (check the scope)',
      { operation: 'enroll' },
      error,
    );
  }
  await tokens.set(profile.id, answer.token, profile.apiUrl);
  return { outcome: 'confirm', profileId: profile.id, user };
}
