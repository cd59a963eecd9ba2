/**
 * One read of the server at a time. Asked again while a read is under way, it reads once
 * more when that one ends (what was asked for may have changed meanwhile), however many
 * times it was asked; once stopped, it starts no read. A failed read is reported, and the
 * next one goes ahead.
 */
export class CoalescedRead {
  readonly #read: () => Promise<void>;
  readonly #onError: (error: unknown) => void;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;

  constructor(read: () => Promise<void>, onError: (error: unknown) => void) {
    this.#read = read;
    this.#onError = onError;
  }

  /** Reads now, or once more after the read under way; resolves when reading is done. */
  run(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    const loop = async (): Promise<void> => {
      do {
        this.#again = false;
        try {
          await this.#read();
        } catch (error) {
          this.#onError(error);
        }
      } while (this.#readAgain());
    };
    this.#running = loop().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** No read after this one; resolves when the read under way, if any, has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#running;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** A method, not a field read once: it changes while a read awaits the server. */
  #readAgain(): boolean {
    return this.#again && !this.#stopped;
  }
}
