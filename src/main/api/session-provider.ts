/**
 * The active server and its client, as the domain modules use them: the service provides
 * it (service/session.ts, service/profile-session.ts); the token stays inside the client.
 */
import type { ServerSummary } from '../../shared/contract';
import type { DebusineClient } from './client';

export interface SessionProvider {
  /** The active server, or null when none is configured. */
  active(): ServerSummary | null;
  /** The active server's client; DebusineError('auth') when there is none. */
  client(): DebusineClient;
  close(): Promise<void>;
}
