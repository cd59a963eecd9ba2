/**
 * Events for one renderer. Main may emit before the page has subscribed (a deep link at
 * start-up, a completion during a reload), so each connection keeps its events until the
 * renderer says it is ready, then delivers them in the order they were emitted.
 */
import type { EventChannel, EventPayload } from '../../shared/contract';

export interface EventMessage<E extends EventChannel = EventChannel> {
  event: E;
  payload: EventPayload<E>;
}

/** Events kept for a renderer that is not ready yet; older ones go first when it is full. */
const MAX_QUEUED = 1000;
/**
 * And at most this many bytes of them (as JSON): a completion event can be tens of KiB, so
 * a thousand of them could be tens of MiB held for a window whose page never loads. What is
 * dropped is old news to a page that reads everything afresh once it has loaded.
 */
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

export class EventOutbox {
  private queue: { message: EventMessage; bytes: number }[] = [];
  private queuedBytes = 0;
  private ready = false;

  constructor(private readonly deliver: (message: EventMessage) => void) {}

  push<E extends EventChannel>(event: E, payload: EventPayload<E>): void {
    const message = { event, payload } as EventMessage;
    if (this.ready) {
      this.deliver(message);
      return;
    }
    // Measured only while the page is not ready: a ready page's events are not copied.
    const bytes = JSON.stringify(payload).length;
    this.queue.push({ message, bytes });
    this.queuedBytes += bytes;
    while (this.queue.length > MAX_QUEUED || this.queuedBytes > MAX_QUEUED_BYTES) {
      const dropped = this.queue.shift();
      if (!dropped) break;
      this.queuedBytes -= dropped.bytes;
    }
  }

  /** The renderer subscribed: flush what waited, in order, then deliver directly. */
  markReady(): void {
    this.ready = true;
    const waiting = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    for (const { message } of waiting) this.deliver(message);
  }

  /** The page reloads or navigates: hold events again until it is ready anew. */
  reset(): void {
    this.ready = false;
  }

  get isReady(): boolean {
    return this.ready;
  }

  get pending(): number {
    return this.queue.length;
  }

  /** The size of the events held, as JSON. */
  get pendingBytes(): number {
    return this.queuedBytes;
  }
}

/** Fans each event out to every connected renderer's outbox. */
export class EventHub {
  private readonly outboxes = new Set<EventOutbox>();
  private readonly listeners = new Set<(message: EventMessage) => void>();

  emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void {
    const message = { event, payload } as EventMessage;
    for (const listener of this.listeners) listener(message);
    for (const outbox of this.outboxes) outbox.push(event, payload);
  }

  /** A renderer connection; returns the function that removes it. */
  attach(outbox: EventOutbox): () => void {
    this.outboxes.add(outbox);
    return () => this.outboxes.delete(outbox);
  }

  /** Main's own observers (notifications, tray). */
  listen(listener: (message: EventMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export type EmitEvent = EventHub['emit'];
