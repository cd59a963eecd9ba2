/**
 * Signing a waiting externaldebsign step from the app (signing/debsign.ts), for the step's
 * page and for the "Sign and upload" button of its notification. Either way the step is
 * signed on the server it was shown for, with a client of that server's own: work request
 * numbers are per server, and the app may have moved to another server since (the session's
 * client is also replaced when the profiles reload, which may happen while gpg-agent waits
 * for the passphrase). The key the page shows before signing is read the same way, on the
 * same server, by the code that signs (signingKeyChoice), and the notification's button
 * signs with that same choice.
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import type { EmitEvent } from '../bridge/event-outbox';
import {
  keyLookup,
  signAndComplete,
  signingAvailable,
  signingKeyChoice,
  type KeyLookup,
  type RunDebsign,
} from '../signing/debsign';
import type { DebusineClient } from '../api/client';
import type { SigningResult } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import type { ProfileSession } from './profile-session';
import { serverKey, type UploadsMade } from '../signing/uploads-made';

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
  'signing.available' | 'signing.keyChoice' | 'signing.signAndComplete'
>;

export interface SigningService {
  /**
   * Signs work request `id` of server profile `profileId` (null: the active one), with
   * `key` or else the key debsign would use (which must be `expected`, when given).
   */
  sign(
    profileId: string | null,
    id: number,
    which?: {
      key?: string | undefined;
      expected?: string | undefined;
      reviewed?: string | undefined;
    },
  ): Promise<SigningResult>;
  handlers(): Handlers;
}

export function signingService(options: {
  session: ProfileSession;
  emit: EmitEvent;
  deps: SigningDeps;
  /** The uploads this app made, which what is signed is compared with. */
  uploadsMade?: UploadsMade;
}): SigningService {
  const { session, emit, deps, uploadsMade } = options;
  const lookup = deps.keys ?? keyLookup();
  /** The uploads of a source this app made on the client's server (never another's). */
  const madeOn = (client: DebusineClient, serverId: string) => (source: string) =>
    uploadsMade
      ? uploadsMade.ofSource(serverKey(client.apiUrl, session.profile(serverId).scope), source)
      : Promise.resolve([]);

  /** A client of the server profile (null: the active one), closed after `use`. */
  const withClient = async <T>(
    profileId: string | null,
    use: (client: DebusineClient, serverId: string) => Promise<T>,
  ): Promise<T> => {
    const serverId = profileId ?? session.activeProfile()?.id;
    if (serverId === undefined) {
      throw new DebusineError('auth', 'No Debusine server is configured yet.');
    }
    const client = await session.clientFor(serverId);
    try {
      return await use(client, serverId);
    } finally {
      await client.close();
    }
  };

  const sign: SigningService['sign'] = async (profileId, id, which = {}) => {
    const availability = await signingAvailable(deps.path);
    const missing = (!deps.run && !availability.debsign) || (!deps.keys && !availability.gpg);
    if (missing) {
      throw new DebusineError(
        'unsupported',
        `${availability.message ?? 'debsign is not available'} Nothing was signed or uploaded.`,
        { rule: 'signing.unavailable' },
      );
    }
    const { result, serverId } = await withClient(profileId, async (client, serverId) => ({
      serverId,
      result: await signAndComplete(client, id, {
        keys: lookup,
        key: which.key,
        expected: which.expected,
        reviewed: which.reviewed,
        uploadsMade: madeOn(client, serverId),
        ...(deps.run ? { run: deps.run } : {}),
      }),
    }));
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
      'signing.keyChoice': ({ workRequestId, serverId }) =>
        withClient(serverId ?? null, (client, id) =>
          signingKeyChoice(client, workRequestId, {
            keys: lookup,
            uploadsMade: madeOn(client, id),
          }),
        ),
      'signing.signAndComplete': ({ workRequestId, serverId, key, expected, reviewed }) =>
        sign(serverId ?? null, workRequestId, { key, expected, reviewed }),
    }),
  };
}
