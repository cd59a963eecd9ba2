import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserDirectory, type UserNameSource } from '../../src/main/identity/user-directory';
import {
  canTellMine,
  creatorName,
  isMine,
  matchesFilters,
  NOBODY,
  type Me,
} from '../../src/renderer/src/screens/work-requests/model';
import { NO_FILTERS } from '../../src/renderer/src/screens/work-requests/views-store';
import type { WorkRequestResponse } from '../../src/shared/models';

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
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ddt-users-'));
    file = join(dir, 'identities.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
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

function wr(id: number, createdBy: number | null, extra: Partial<WorkRequestResponse> = {}) {
  return {
    id,
    created_by: createdBy,
    task_name: 'noop',
    task_type: 'Worker',
    workspace: 'System',
    status: 'completed',
    result: 'success',
    task_data: {},
    ...extra,
  } as WorkRequestResponse;
}

describe('the list\'s "mine" filter', () => {
  const byName: Me = { username: 'alice', userId: null, creators: { '2': 'alice', '3': 'bob' } };
  const byId: Me = { username: 'alice', userId: 2, creators: {} };

  it('matches by learned id or by the creator names the server gave', () => {
    expect(isMine(wr(1, 2), byName)).toBe(true);
    expect(isMine(wr(1, 3), byName)).toBe(false);
    expect(isMine(wr(1, 2), byId)).toBe(true);
    expect(isMine(wr(1, 3), byId)).toBe(false);
    expect(isMine(wr(1, null), byId)).toBe(false);
    expect(isMine(wr(1, 2), NOBODY)).toBe(false);
  });

  it('filters the loaded rows, and searches creator names', () => {
    const rows = [wr(1, 2), wr(2, 3), wr(3, null)];
    const mine = rows.filter((r) => matchesFilters(r, { ...NO_FILTERS, mine: true }, byName));
    expect(mine.map((r) => r.id)).toEqual([1]);
    const bob = rows.filter((r) => matchesFilters(r, { ...NO_FILTERS, search: 'bob' }, byName));
    expect(bob.map((r) => r.id)).toEqual([2]);
    expect(creatorName(wr(9, 3), byName)).toBe('bob');
  });

  it('says when "mine" cannot be told: no id learned and no names given', () => {
    expect(canTellMine(byId, [])).toBe(true);
    expect(canTellMine(byName, [wr(1, 3)])).toBe(true);
    expect(canTellMine({ ...NOBODY, username: 'alice' }, [wr(1, 3)])).toBe(false);
  });
});
