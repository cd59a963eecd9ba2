/**
 * User names by id (api/users.ts) on real servers: 0.12+ name the user behind a
 * `created_by` through the web UI's `/-/user/{id}/` redirect; 0.11 has no such page.
 */
import { expect, it } from 'vitest';
import { rejection, createNoop } from '../support/clients';
import { describeOnEachServer } from '../support/on-each-server';

describeOnEachServer('user names on the %s server', ({ flavour, server, client }) => {
  it('names the creator of a work request where the server says', async () => {
    const created = await createNoop(client);
    expect(typeof created.created_by).toBe('number');
    const name = await client.userName(created.created_by ?? 0);
    if (flavour === 'current') expect(name).toBe(server.users.owner.username);
    else expect(name).toBeNull();
    // An id with no user behind it is not an error: the name is just unknown.
    await expect(client.userName(2_000_000_000)).resolves.toBeNull();
  });

  it('refuses what is not a user id before asking', async () => {
    const error = await rejection(client.userName(0));
    expect(error.code).toBe('validation');
  });
});
