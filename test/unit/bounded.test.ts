import { describe, expect, it } from 'vitest';
import { BoundedMap, BoundedSet } from '../../src/main/bounded';
import { completionKey } from '../../src/main/notify/completion-key';

describe('BoundedMap', () => {
  it('keeps at most its capacity, forgetting the oldest entry first', () => {
    const map = new BoundedMap<number, string>(3);
    for (let i = 1; i <= 5; i++) map.set(i, `v${String(i)}`);
    expect(map.size).toBe(3);
    expect([1, 2, 3, 4, 5].map((i) => map.get(i))).toEqual([
      undefined,
      undefined,
      'v3',
      'v4',
      'v5',
    ]);
  });

  it('replaces the value of a key already there without moving it', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 10);
    expect(map.size).toBe(2);
    expect(map.get('a')).toBe(10);
    // `a` came in first, so it is the one to go.
    map.set('c', 3);
    expect(map.has('a')).toBe(false);
    expect(map.get('b')).toBe(2);
    expect(map.get('c')).toBe(3);
  });

  it('makes room when an entry is deleted', () => {
    const map = new BoundedMap<number, number>(2);
    map.set(1, 1).set(2, 2);
    expect(map.delete(1)).toBe(true);
    expect(map.delete(1)).toBe(false);
    map.set(3, 3);
    expect(map.has(2)).toBe(true);
    expect(map.has(3)).toBe(true);
    expect(map.size).toBe(2);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses a capacity of %s',
    (capacity) => {
      expect(() => new BoundedMap(capacity)).toThrow(RangeError);
    },
  );

  it('stays at its capacity however many entries pass through', () => {
    const map = new BoundedMap<number, number>(100);
    for (let i = 0; i < 100_000; i++) map.set(i, i);
    expect(map.size).toBe(100);
    expect(map.has(99_899)).toBe(false);
    expect(map.has(99_900)).toBe(true);
  });
});

describe('BoundedSet', () => {
  it('keeps at most its capacity, forgetting the oldest value first', () => {
    const set = new BoundedSet<string>(2);
    set.add('a').add('b').add('a').add('c');
    expect(set.size).toBe(2);
    expect(set.capacity).toBe(2);
    expect(['a', 'b', 'c'].map((v) => set.has(v))).toEqual([false, true, true]);
    expect(set.delete('b')).toBe(true);
    expect(set.has('b')).toBe(false);
  });

  it('lists what it remembers, oldest first', () => {
    const set = new BoundedSet<number>(3);
    for (let i = 1; i <= 5; i++) set.add(i);
    set.add(4);
    expect([...set.values()]).toEqual([3, 4, 5]);
  });
});

describe('completionKey', () => {
  it('names one completion of one work request', () => {
    expect(completionKey(12, '2026-01-01T00:00:01.5Z')).toBe('12@2026-01-01T00:00:01.5Z');
    // A workflow retried in place completes again, at another time: another completion.
    expect(completionKey(12, '2026-01-02T00:00:00Z')).not.toBe(
      completionKey(12, '2026-01-01T00:00:01.5Z'),
    );
  });
});
