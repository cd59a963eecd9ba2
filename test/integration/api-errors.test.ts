import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { DebusineClient } from '../../src/main/api/client';
import { clientFor, rejection, unique } from '../support/clients';
import { hasServer, testServer, type Flavour } from '../support/sandbox';

describe.each<Flavour>(['current', 'earlier'])('errors from the %s server', (flavour) => {
  describe.runIf(hasServer(flavour))('', () => {
    const server = testServer(flavour);
    const bob = clientFor(server, 'noRoles');
    const anonymous = clientFor(server, 'anonymous');
    const badToken = 'f'.repeat(64);
    const bad = new DebusineClient({ apiUrl: server.apiUrl, token: badToken, scope: server.scope });
    afterAll(async () => {
      await Promise.all([bob.close(), anonymous.close(), bad.close()]);
    });

    it('the no-roles user may not create in the private workspace', async () => {
      const error = await rejection(
        bob.workRequestCreate({
          task_name: 'noop',
          task_data: {},
          event_reactions: {},
          workspace: server.workspaces.second ?? 'Playground',
        }),
      );
      // Private workspaces are hidden from those without a role: "not found", not 403.
      expect(['not-found', 'forbidden']).toContain(error.code);
      expect(error.details.operation).toBe('workRequestCreate');
    });

    it('the no-roles user may not configure workspaces', async () => {
      const call =
        flavour === 'current'
          ? bob.collectionCreate(server.workspaces.default, {
              name: unique('bob'),
              category: 'debian:suite',
              data: {},
            })
          : bob.workflowTemplateCreate(server.workspaces.default, {
              name: unique('bob'),
              task_name: 'noop',
              task_data: {},
            });
      const error = await rejection(call);
      expect(error.code).toBe('forbidden');
      expect(error.details.status).toBe(403);
    });

    it('a bad token is anonymous: checkToken and work requests fail with auth', async () => {
      expect((await rejection(bad.checkToken())).code).toBe('auth');
      const error = await rejection(bad.workRequestGet(1));
      expect(error.code).toBe('auth');
      expect(error.message).not.toContain(badToken);
      expect(JSON.stringify(error.toJSON())).not.toContain(badToken);
      expect((await rejection(anonymous.workRequestGet(1))).code).toBe('auth');
    });

    it('an unknown scope is not-found', async () => {
      const client = new DebusineClient({ apiUrl: server.apiUrl, scope: unique('noscope') });
      try {
        const error = await rejection(client.workRequestGet(1));
        expect(error.code).toBe('not-found');
      } finally {
        await client.close();
      }
    });
  });
});

describe('a stopped server', () => {
  it('fails with a network error naming the server, not the token', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const address = s.address();
        s.close(() => {
          resolve(typeof address === 'object' && address ? address.port : 0);
        });
      });
    });
    const token = 'a'.repeat(64);
    const client = new DebusineClient({
      apiUrl: `http://127.0.0.1:${String(port)}/api`,
      token,
      retries: 1,
      retryBaseMs: 5,
    });
    try {
      const error = await rejection(client.workRequestGet(1));
      expect(error.code).toBe('network');
      expect(error.message).toContain(`127.0.0.1:${String(port)}`);
      expect(error.message).toContain('connection refused');
      expect(JSON.stringify(error.toJSON())).not.toContain(token);
    } finally {
      await client.close();
    }
  });
});
