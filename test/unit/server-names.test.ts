/**
 * Server names that read the same as another's are refused, naming the server already
 * there with its host; a link that makes another server active says which.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNavigation } from '../../src/main/service/navigation';
import type { ProfileSession } from '../../src/main/service/profile-session';
import { importCliConfig } from '../../src/main/settings/cli-import';
import { ProfileStore } from '../../src/main/settings/profiles';
import { FileTokenStore } from '../../src/main/settings/token-store';
import { DebusineError } from '../../src/shared/errors';
import {
  hostBeside,
  nameSkeleton,
  namesReadAlike,
  serverHost,
} from '../../src/shared/server-names';
import { tempDirInEachTest } from '../support/temp-dirs';

describe('names that read alike', () => {
  it.each([
    ['a Cyrillic е', 'd\u0435busine.example'],
    ['a Greek Ε and a Cyrillic е', 'd\u0395busine.\u0435xample'],
    ['fullwidth letters', '\uff44\uff45\uff42\uff55\uff53\uff49\uff4e\uff45.example'],
    ['another case', 'DeBusine.Example'],
    ['a Cyrillic capital Е and Greek Ι', 'D\u0415BUS\u0399NE.EXAMPLE'],
    ['a zero-width space', 'debu\u200bsine.example'],
    ['the same name', 'debusine.example'],
  ])('with %s read as "debusine.example"', (_what, name) => {
    expect(namesReadAlike(name, 'debusine.example')).toBe(true);
  });

  it('with a Greek ο read as o', () => {
    expect(namesReadAlike('debian.\u03bfrg', 'debian.org')).toBe(true);
    expect(namesReadAlike('Debian \u039fRG', 'debian org')).toBe(true);
  });

  it('are told apart from names that read differently', () => {
    expect(namesReadAlike('debusine.example', 'debusine.example.org')).toBe(false);
    expect(namesReadAlike('debian', 'debusine')).toBe(false);
    expect(namesReadAlike('caf\u00e9', 'cafe')).toBe(false);
    expect(nameSkeleton('  Debusine   Example ')).toBe('debusine example');
  });

  it("a server's host is in punycode where it is not ASCII", () => {
    expect(serverHost('https://d\u0435busine.example/api')).toMatch(/^xn--/);
    expect(serverHost('https://debusine.example:8443/api')).toBe('debusine.example:8443');
  });
});

describe('the server profiles', () => {
  let dir: string;
  tempDirInEachTest('names-', (made) => {
    dir = made;
  });

  const add = (profiles: ProfileStore, name: string, apiUrl: string) =>
    profiles.add({ name, apiUrl, scope: 'debusine', defaultWorkspace: null });

  it("refuse a name that reads as another server's, naming it and its host", async () => {
    const profiles = new ProfileStore(join(dir, 'data'));
    await add(profiles, 'debusine.example', 'https://debusine.example/api');
    for (const name of [
      'd\u0435busine.example',
      '\uff44\uff45\uff42\uff55\uff53\uff49\uff4e\uff45.example',
      'DEBUSINE.example',
      'debusine.exampl\u0435',
    ]) {
      const error = await add(profiles, name, 'https://evil.example/api').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DebusineError);
      expect(error).toMatchObject({ code: 'conflict' });
      expect((error as Error).message).toContain('reads the same as the server "debusine.example"');
      expect((error as Error).message).toContain('(debusine.example)');
    }
    expect((await profiles.load()).profiles).toHaveLength(1);
  });

  it('refuse a renaming to such a name', async () => {
    const profiles = new ProfileStore(join(dir, 'data'));
    await add(profiles, 'debusine.example', 'https://debusine.example/api');
    const other = await add(profiles, 'other', 'https://other.example/api');
    await expect(profiles.update(other.id, { name: 'd\u0435busine.example' })).rejects.toThrow(
      /reads the same as the server "debusine\.example"/,
    );
    // Its own name, in another case, is the user's to choose.
    await expect(profiles.update(other.id, { name: 'Other' })).resolves.toMatchObject({
      name: 'Other',
    });
  });

  it('skip such a name in the CLI config', async () => {
    const profiles = new ProfileStore(join(dir, 'data'));
    await add(profiles, 'debusine.example', 'https://debusine.example/api');
    const file = join(dir, 'config.ini');
    await writeFile(
      file,
      '[server:d\u0435busine.example]\napi-url = https://evil.example/api\nscope = debusine\n',
    );
    const result = await importCliConfig({
      profiles,
      tokens: new FileTokenStore(join(dir, 'data')),
      path: file,
    });
    expect(result.imported).toEqual([]);
    expect(result.skipped[0]?.reason).toContain('reads the same as the server "debusine.example"');
  });
});

describe('following a link to another server', () => {
  const servers = [
    { id: 'real', name: 'debusine.example', apiUrl: 'https://debusine.example/api' },
    { id: 'other', name: 'd\u0435busine.example', apiUrl: 'https://d\u0435busine.example/api' },
  ];

  function navigation(activeId: string) {
    let active = activeId;
    const emitted: unknown[] = [];
    const session = {
      activeProfile: () => servers.find((s) => s.id === active),
      list: () => servers,
    } as unknown as ProfileSession;
    const nav = createNavigation({
      session,
      activate: (id) => {
        active = id;
        return Promise.resolve();
      },
      emit: ((_event: string, payload: unknown) => emitted.push(payload)) as never,
    });
    return { nav, emitted };
  }

  it('says which server it switched to, with its host', async () => {
    const { nav, emitted } = navigation('real');
    const outcome = await nav.go({
      target: { kind: 'work-request', id: 42 },
      server: { origin: new URL(servers[1]?.apiUrl ?? '').origin },
    });
    const switchedTo = {
      profileId: 'other',
      name: 'd\u0435busine.example',
      host: serverHost('https://d\u0435busine.example/api'),
    };
    expect(outcome).toEqual({ shown: { kind: 'work-request', id: 42 }, switchedTo });
    expect(emitted).toEqual([{ kind: 'work-request', id: 42, server: 'other', switchedTo }]);
  });

  it('says nothing of servers when it stays on the active one', async () => {
    const { nav, emitted } = navigation('real');
    const outcome = await nav.go({
      target: { kind: 'work-request', id: 42 },
      server: { profileId: 'real' },
    });
    expect(outcome).toEqual({ shown: { kind: 'work-request', id: 42 } });
    expect(emitted).toEqual([{ kind: 'work-request', id: 42, server: 'real' }]);
  });
});

describe('the host beside a name', () => {
  it('is shown unless the name is that host, and always for a name that only reads like it', () => {
    expect(hostBeside('Debian', 'https://debusine.debian.net/api')).toBe('debusine.debian.net');
    expect(hostBeside('127.0.0.1:18016', 'http://127.0.0.1:18016/api')).toBeUndefined();
    expect(hostBeside('Debusine.Debian.Net', 'https://debusine.debian.net/api')).toBeUndefined();
    // A Cyrillic е: the name is not the host, which is shown.
    expect(hostBeside('d\u0435busine.debian.net', 'https://debusine.debian.net/api')).toBe(
      'debusine.debian.net',
    );
  });
});
