/** The work request list's pure helpers ("mine", creator names, search). */
import { describe, expect, it } from 'vitest';
import {
  canTellMine,
  creatorName,
  isMine,
  matchesFilters,
  NOBODY,
  type Me,
} from '@renderer/screens/work-requests/model';
import { NO_FILTERS } from '@renderer/screens/work-requests/views-store';
import type { WorkRequestResponse } from '@shared/contract';
import { workRequestFixture } from '../../support/work-requests';

function wr(id: number, createdBy: number | null, extra: Partial<WorkRequestResponse> = {}) {
  return workRequestFixture(id, { created_by: createdBy, ...extra });
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
