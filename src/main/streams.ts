/**
 * Streams main reads from a server, a file or a socket, made safe to drop.
 *
 * A Node stream that emits 'error' with no listener throws it from the event loop, which
 * ends the whole process: the Electron app, or the web host and every window on it. Some
 * streams emit an error when merely destroyed: undici's response body, destroyed before
 * its end, emits "Request aborted" on the next turn of the loop, after the caller who
 * destroyed it has moved on. Whoever consumes a stream (an async iteration, a pipeline)
 * sees its errors through that; the listener added here only makes sure that an error
 * nobody is reading any more is dropped instead of killing the process.
 */
import type { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';

/** An error of a stream its reader has already let go of: nothing left to tell. */
const nobodyListens = (): undefined => undefined;

/** Gives `stream` an 'error' listener of its own, once; its readers still get the errors. */
export function owned<S extends EventEmitter>(stream: S): S {
  if (!stream.listeners('error').includes(nobodyListens)) stream.on('error', nobodyListens);
  return stream;
}

/** Stops a stream and lets go of it, whatever it emits as it goes. */
export function discard(stream: Readable | Writable, error?: Error): void {
  owned(stream);
  if (!stream.destroyed) stream.destroy(error);
}
