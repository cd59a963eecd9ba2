import { DebusineClient } from '../../src/main/api/client';
import type { WorkRequestResponse } from '../../src/shared/models';
import { testServer, type Flavour, type TestServer } from './sandbox';

export function clientFor(
  server: TestServer,
  user: 'owner' | 'noRoles' | 'anonymous' = 'owner',
): DebusineClient {
  const token = user === 'anonymous' ? undefined : server.users[user]?.token;
  if (user !== 'anonymous' && !token) throw new Error(`The test server has no ${user} user`);
  return new DebusineClient({ apiUrl: server.apiUrl, token, scope: server.scope });
}

export function ownerClient(flavour: Flavour): DebusineClient {
  return clientFor(testServer(flavour), 'owner');
}

/** Polls a work request until it leaves pending/running/blocked, or fails after `ms`. */
export async function waitForCompletion(
  client: DebusineClient,
  id: number,
  ms = 90_000,
): Promise<WorkRequestResponse> {
  const deadline = Date.now() + ms;
  for (;;) {
    const wr = await client.workRequestGet(id);
    if (wr.status === 'completed' || wr.status === 'aborted') return wr;
    if (Date.now() > deadline) {
      throw new Error(`work request ${String(id)} still ${wr.status} after ${String(ms)} ms`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
