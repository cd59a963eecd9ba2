/**
 * Signing a waiting externaldebsign step from the app (signing/debsign.ts), for the step's
 * page and for the "Sign and upload" button of its notification. Either way the step is
 * signed on the server it was shown for, with a client of that server's own: work request
 * numbers are per server, and the app may have moved to another server since (the session's
 * client is also replaced when the profiles reload, which may happen while gpg-agent waits
 * for the passphrase).
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import type { EmitEvent } from '../bridge/event-outbox';
import {
  keyLookup,
  signAndComplete,
  signingAvailable,
  signingKeys,
  type KeyLookup,
  type RunDebsign,
} from '../signing/debsign';
import type { SigningResult } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import type { ProfileSession } from './profile-session';

export interface SigningDeps {
  /** Replaces debsign. */
  run?: RunDebsign;
  /** Replaces gpg's key list and the devscripts files. */
  keys?: KeyLookup;
  /** Where debsign and gpg are looked for (default: PATH). */
  path?: string;
}

type Handlers = Pick<
  ServiceHandlers,
  'signing.available' | 'signing.keys' | 'signing.signAndComplete'
>;

export interface SigningService {
  /** Signs work request `id` of server profile `profileId` (null: the active one). */
  sign(profileId: string | null, id: number, key?: string): Promise<SigningResult>;
  handlers(): Handlers;
}

export function signingService(options: {
  session: ProfileSession;
  emit: EmitEvent;
  deps: SigningDeps;
}): SigningService {
  const { session, emit, deps } = options;
  const lookup = deps.keys ?? keyLookup();

  const sign = async (
    profileId: string | null,
    id: number,
    key?: string,
  ): Promise<SigningResult> => {
    const availability = await signingAvailable(deps.path);
    const missing = (!deps.run && !availability.debsign) || (!deps.keys && !availability.gpg);
    if (missing) {
      throw new DebusineError(
        'unsupported',
        `${availability.message ?? 'debsign is not available'} Nothing was signed or uploaded.`,
        { rule: 'signing.unavailable' },
      );
    }
    const serverId = profileId ?? session.activeProfile()?.id;
    if (serverId === undefined) {
      throw new DebusineError('auth', 'No Debusine server is configured yet.');
    }
    const client = await session.clientFor(serverId);
    let result: SigningResult;
    try {
      result = await signAndComplete(client, id, {
        keys: lookup,
        key,
        ...(deps.run ? { run: deps.run } : {}),
      });
    } finally {
      await client.close();
    }
    // Ids name work requests of the active server only: another server's would be others.
    if (result.status === 'signed' && session.activeProfile()?.id === serverId) {
      emit('workRequests.changed', { ids: [id] });
    }
    return result;
  };

  return {
    sign,
    handlers: () => ({
      'signing.available': () => signingAvailable(deps.path),
      'signing.keys': () => signingKeys(lookup),
      'signing.signAndComplete': ({ workRequestId, serverId, key }) =>
        sign(serverId ?? null, workRequestId, key),
    }),
  };
}
