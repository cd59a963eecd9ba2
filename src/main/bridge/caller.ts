/**
 * The renderer a request came from, as its handler sees it. What one renderer opens (a log
 * handle, a draft and its folder, files it staged) is held here under a key, and released
 * when that renderer closes or reloads: a page that went away cannot release anything
 * itself, and main must not keep its resources for the rest of the session. Events about
 * those resources go to this renderer only.
 */
import type { EventChannel, EventPayload } from '../../shared/contract';

export interface Caller {
  /** Sends an event to this renderer alone (one about something it opened). */
  emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void;
  /**
   * Keeps something this renderer opened until `release(key)` or until the renderer goes.
   * A renderer that is gone already has it released at once.
   */
  hold(key: string, release: () => Promise<void>): void;
  /** Whether this renderer opened what the key names (and holds it still). */
  holds(key: string): boolean;
  /** Releases it now; false when this renderer held nothing under the key. */
  release(key: string): Promise<boolean>;
  /** Gives it up without releasing it: something else owns it now (an upload a draft became). */
  forget(key: string): void;
}

/** One renderer's holdings: closed when the renderer closes or its page reloads. */
export class CallerScope implements Caller {
  readonly #held = new Map<string, () => Promise<void>>();
  readonly #send: <E extends EventChannel>(event: E, payload: EventPayload<E>) => void;
  readonly #onReleaseError: (key: string, error: unknown) => void;
  #closed = false;

  constructor(
    send: <E extends EventChannel>(event: E, payload: EventPayload<E>) => void,
    onReleaseError: (key: string, error: unknown) => void = (key, error) => {
      console.warn(`Could not release ${key}: ${String(error)}`);
    },
  ) {
    this.#send = send;
    this.#onReleaseError = onReleaseError;
  }

  emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void {
    if (!this.#closed) this.#send(event, payload);
  }

  hold(key: string, release: () => Promise<void>): void {
    if (this.#closed) {
      // The request that opened it finished after its renderer went.
      void this.#settle(key, release);
      return;
    }
    const previous = this.#held.get(key);
    this.#held.set(key, release);
    if (previous) void this.#settle(key, previous);
  }

  holds(key: string): boolean {
    return this.#held.has(key);
  }

  async release(key: string): Promise<boolean> {
    const release = this.#held.get(key);
    if (!release) return false;
    this.#held.delete(key);
    await release();
    return true;
  }

  forget(key: string): void {
    this.#held.delete(key);
  }

  /** How many things it holds (for tests and diagnostics). */
  get size(): number {
    return this.#held.size;
  }

  /** The renderer went: release everything it held; later holds release at once. */
  async close(): Promise<void> {
    this.#closed = true;
    const held = [...this.#held];
    this.#held.clear();
    await Promise.all(held.map(([key, release]) => this.#settle(key, release)));
  }

  async #settle(key: string, release: () => Promise<void>): Promise<void> {
    try {
      await release();
    } catch (error) {
      this.#onReleaseError(key, error);
    }
  }
}
