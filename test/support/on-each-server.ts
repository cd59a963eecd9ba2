/**
 * Integration tests run against both server versions the app supports; this is the frame
 * each such file shares: a `describe` per flavour (skipped where no server of that flavour
 * runs), the owner's client for it, closed after the file's tests.
 */
import { afterAll, describe } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { clientFor } from './clients';
import { hasServer, testServer, type Flavour, type TestServer } from './sandbox';

export interface OnServer {
  flavour: Flavour;
  server: TestServer;
  /** The owner's client, closed after the tests. */
  client: DebusineClient;
}

/**
 * `title` (with `%s` for the flavour) on the current and the earlier server; `when` false
 * skips both, as a missing server does.
 */
export function describeOnEachServer(
  title: string,
  body: (on: OnServer) => void,
  when = true,
): void {
  describe.each<Flavour>(['current', 'earlier'])(title, (flavour) => {
    describe.runIf(hasServer(flavour) && when)('', () => {
      const server = testServer(flavour);
      const client = clientFor(server);
      afterAll(async () => {
        await client.close();
      });
      body({ flavour, server, client });
    });
  });
}
