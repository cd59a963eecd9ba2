/**
 * Collections that remember only the latest entries: insertion-ordered, and past their
 * capacity the oldest entry goes. For what main remembers about a stream that never ends
 * (completions seen, notifications shown, list cursors handed out), where forgetting an
 * old entry costs at most one more read or one more notification, and keeping them all
 * would grow for as long as the app runs.
 *
 * Setting a key that is already there replaces its value and keeps its place, as a Map
 * does: an entry's age is when it first came in.
 */

function checkCapacity(capacity: number): number {
  if (!Number.isSafeInteger(capacity) || capacity < 1) {
    throw new RangeError(
      `A bounded collection needs a capacity of at least 1, not ${String(capacity)}`,
    );
  }
  return capacity;
}

export class BoundedMap<K, V> {
  readonly capacity: number;
  readonly #entries = new Map<K, V>();

  constructor(capacity: number) {
    this.capacity = checkCapacity(capacity);
  }

  get size(): number {
    return this.#entries.size;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  set(key: K, value: V): this {
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  /** The keys still remembered, oldest first. */
  keys(): IterableIterator<K> {
    return this.#entries.keys();
  }
}

export class BoundedSet<T> {
  readonly #entries: BoundedMap<T, true>;

  constructor(capacity: number) {
    this.#entries = new BoundedMap(capacity);
  }

  get capacity(): number {
    return this.#entries.capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  has(value: T): boolean {
    return this.#entries.has(value);
  }

  add(value: T): this {
    this.#entries.set(value, true);
    return this;
  }

  delete(value: T): boolean {
    return this.#entries.delete(value);
  }

  /** The values still remembered, oldest first (to save them, say). */
  values(): IterableIterator<T> {
    return this.#entries.keys();
  }
}
