import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserDirectory, type UserNameSource } from '../../src/main/identity/user-directory';
import { tempDirInEachTest } from '../support/temp-dirs';

const API = 'https://debusine.example.org/api';

/** A server that names users 2 (alice) and 3 (bob), and counts what it was asked. */
function source(names: Record<number, string> = { 2: 'alice', 3: 'bob' }) {
  const asked: number[] = [];
  let failNext = false;
  const src: UserNameSource & { asked: number[]; failOnce: () => void } = {
    apiUrl: API,
    asked,
    failOnce: () => {
      failNext = true;
    },
    userName: (id) => {
      asked.push(id);
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('network down'));
      }
      return Promise.resolve(names[id] ?? null);
    },
  };
  return src;
}

describe('UserDirectory', () => {
  let file: string;
  tempDirInEachTest('ddt-users-', (dir) => {
    file = join(dir, 'identities.json');
  });

  it('names creators once each, leaving out ids the server does not name', async () => {
    const users = new UserDirectory(file);
    const src = source();
    await expect(users.names('s1', src, [2, 3, 2, null, undefined, 9])).resolves.toEqual({
      '2': 'alice',
      '3': 'bob',
    });
    await expect(users.names('s1', src, [3, 9])).resolves.toEqual({ '3': 'bob' });
    expect(src.asked.sort()).toEqual([2, 3, 9]);
  });

  it('asks again after a failure instead of remembering it', async () => {
    const users = new UserDirectory(file);
    const src = source();
    src.failOnce();
    await expect(users.names('s1', src, [2])).resolves.toEqual({});
    await expect(users.names('s1', src, [2])).resolves.toEqual({ '2': 'alice' });
    expect(src.asked).toEqual([2, 2]);
  });

  it('learns the signed-in user id from the names and keeps it across restarts', async () => {
    const users = new UserDirectory(file);
    const src = source();
    await expect(users.selfId('s1', API, 'bob')).resolves.toBeNull();
    await users.names('s1', src, [2, 3]);
    await expect(users.selfId('s1', API, 'bob')).resolves.toBe(3);
    const again = new UserDirectory(file);
    await expect(again.selfId('s1', API, 'bob')).resolves.toBe(3);
    // Someone else signs in on that server: start over.
    await expect(again.selfId('s1', API, 'carol')).resolves.toBeNull();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      s1: { apiUrl: API, username: 'carol', userId: null },
    });
  });

  it('learns the id from a work request started here, even before whoami answered', async () => {
    const users = new UserDirectory(file);
    await users.learnSelf('s1', API, 7);
    await expect(users.selfId('s1', API, 'alice')).resolves.toBe(7);
    await users.learnSelf('s1', API, 7);
    await expect(users.selfId('s2', API, 'alice')).resolves.toBeNull();
  });

  it('tells whether a work request is mine, by id or by name', async () => {
    const users = new UserDirectory(file);
    const src = source();
    await expect(users.isMine('s1', src, 'alice', 2)).resolves.toBe(true);
    await expect(users.isMine('s1', src, 'alice', 3)).resolves.toBe(false);
    await expect(users.isMine('s1', src, 'alice', null)).resolves.toBe(false);
    // The id is now known, so no more names are needed.
    const before = src.asked.length;
    await expect(users.isMine('s1', src, 'alice', 11)).resolves.toBe(false);
    expect(src.asked.length).toBe(before);
  });

  it('starts from nothing when its file is damaged', async () => {
    await writeFile(file, '{ not json');
    const users = new UserDirectory(file);
    await expect(users.selfId('s1', API, 'alice')).resolves.toBeNull();
  });
});
