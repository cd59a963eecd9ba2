import { readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { ProfileStore } from '../../src/main/settings/profiles';
import { signIn } from '../../src/main/settings/sign-in';
import { FileTokenStore } from '../../src/main/settings/token-store';
import { tempDirInEachTest } from '../support/temp-dirs';

describe('the file token store and profiles', () => {
  let dir: string;
  tempDirInEachTest('tokens-', (made) => {
    dir = made;
  });

  it('keeps tokens in a 0600 file and says so', async () => {
    const store = new FileTokenStore(dir);
    await store.set('one', 'abcdef123456', 'https://one.example/api');
    await store.set('two', 'zyxw98765432', 'https://two.example/api');
    expect(await store.get('one')).toEqual({
      token: 'abcdef123456',
      origin: 'https://one.example',
    });
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    await store.delete('one');
    expect(await store.has('one')).toBe(false);
    expect((await store.get('two'))?.token).toBe('zyxw98765432');
    expect(store.info()).toMatchObject({ kind: 'file', secure: true });
  });

  it('refuses a token that cannot be a header, without repeating it', async () => {
    const store = new FileTokenStore(dir);
    const error = await store
      .set('one', 'bad token\nx', 'https://one.example/api')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'validation' });
    expect((error as Error).message).not.toContain('bad token');
  });

  it('manages profiles, one active, with no token fields', async () => {
    const profiles = new ProfileStore(dir);
    const a = await profiles.add({
      name: 'Debian',
      apiUrl: 'https://d.example/api/',
      scope: 'debian',
    });
    const b = await profiles.add({
      name: 'Local',
      apiUrl: 'http://localhost:8000/api',
      scope: 'debusine',
    });
    expect(a).toMatchObject({ id: 'debian', apiUrl: 'https://d.example/api', origin: 'manual' });
    expect((await profiles.active())?.id).toBe('debian');
    await profiles.setActive(b.id);
    expect((await profiles.active())?.id).toBe('local');
    await expect(
      profiles.add({ name: 'Local', apiUrl: 'http://x/api', scope: 's' }),
    ).rejects.toMatchObject({ code: 'conflict' });
    await profiles.remove(b.id);
    expect((await profiles.active())?.id).toBe('debian');
    expect(await readFile(profiles.path, 'utf8')).not.toMatch(/token/i);
  });

  it('signs in only when whoami accepts the token', async () => {
    const tokens = new FileTokenStore(dir);
    const profile = await new ProfileStore(dir).add({
      name: 'S',
      apiUrl: 'http://s/api',
      scope: 's',
    });
    const fake = (auth: boolean) => () =>
      ({
        checkToken: () =>
          auth
            ? Promise.resolve({ user: 'alice', auth: true })
            : Promise.reject(Object.assign(new Error('not accepted'), { code: 'auth' })),
        close: () => Promise.resolve(),
      }) as unknown as DebusineClient;
    await expect(
      signIn({ profile, token: 'goodtoken1', tokens, createClient: fake(false) }),
    ).rejects.toMatchObject({ code: 'auth' });
    expect(await tokens.has(profile.id)).toBe(false);
    await expect(
      signIn({ profile, token: ' goodtoken1 ', tokens, createClient: fake(true) }),
    ).resolves.toEqual({ profileId: 's', user: 'alice' });
    expect(await tokens.get(profile.id)).toEqual({ token: 'goodtoken1', origin: 'http://s' });
  });
});
