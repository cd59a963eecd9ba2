/**
 * Events sent to an Electron window's page and not yet taken by it. `webContents.send`
 * never refuses a message: a page that stops running its script (hung, or stuck in a
 * long task) leaves each one queued for it, so a flood of completions would all be kept,
 * as a page that stopped reading its socket made the web host keep them. The preload
 * says how many it has handed to the page (BRIDGE_ACK_CHANNEL); past a bound, nothing
 * more is sent, and the window is reloaded so that its new page reads everything anew.
 */
import type { EventMessage } from './event-outbox';

/** More than a page that runs ever leaves untaken: it acknowledges every 100 ms. */
export const MAX_UNACKED_EVENTS = 5_000;
/** And at most this many bytes of them, as JSON (a completion can be tens of KiB). */
export const MAX_UNACKED_BYTES = 8 * 1024 * 1024;

export interface UnackedLimits {
  events: number;
  bytes: number;
}

export class UnackedEvents {
  /** The size of each event sent and not acknowledged, oldest first. */
  private readonly sizes: number[] = [];
  private head = 0;
  private bytes = 0;
  private behind = false;

  constructor(
    /** Called once when the page falls behind, until `reset`. */
    private readonly onFellBehind: () => void,
    private readonly limits: UnackedLimits = {
      events: MAX_UNACKED_EVENTS,
      bytes: MAX_UNACKED_BYTES,
    },
  ) {}

  /** Whether `message` may be sent now; false once the page has fallen behind. */
  admit(message: EventMessage): boolean {
    if (this.behind) return false;
    const size = JSON.stringify(message).length;
    if (this.count + 1 > this.limits.events || this.bytes + size > this.limits.bytes) {
      this.behind = true;
      this.onFellBehind();
      return false;
    }
    this.sizes.push(size);
    this.bytes += size;
    return true;
  }

  /**
   * The page took `count` more events. The count comes from the page: anything but a
   * small whole number is ignored, and it never frees more than was sent.
   */
  ack(count: unknown): void {
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count <= 0) return;
    const taken = Math.min(count, this.count);
    for (let n = 0; n < taken; n++) this.bytes -= this.sizes[this.head++] ?? 0;
    // Kept from growing: the taken sizes are dropped once they are half of the array.
    if (this.head > 1024 && this.head * 2 > this.sizes.length) {
      this.sizes.splice(0, this.head);
      this.head = 0;
    }
  }

  /** A new page: nothing is owed to it, and it may be sent events again. */
  reset(): void {
    this.sizes.length = 0;
    this.head = 0;
    this.bytes = 0;
    this.behind = false;
  }

  get count(): number {
    return this.sizes.length - this.head;
  }

  get pendingBytes(): number {
    return this.bytes;
  }

  get fellBehind(): boolean {
    return this.behind;
  }
}
