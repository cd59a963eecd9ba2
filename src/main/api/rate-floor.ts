/**
 * The slowest a server may send a body. undici's timeouts measure silence only: a server
 * that sends one byte a second is never silent, and would keep a file, a tarball or a JSON
 * answer arriving forever. So a body that brings in fewer than `bytesPerSecond` over a
 * whole `windowMs`, while the app waits for it, is stopped with the error `tooSlow` makes.
 *
 * Time the app spends behind (bytes waiting for it to read, because the disk is slow) does
 * not count against the server: the window starts again once the app caught up.
 */
import { Transform, pipeline, type Readable } from 'node:stream';
import { discard, owned } from '../streams';

export interface RateFloor {
  bytesPerSecond: number;
  windowMs: number;
}

/**
 * Under 1 KiB/s for a whole minute: slower than any working link (a modem did 7 KiB/s), and
 * long enough that a stall of a few seconds on a slow network is never mistaken for it.
 */
export const RATE_FLOOR: RateFloor = { bytesPerSecond: 1024, windowMs: 60_000 };

/** How often the rate is looked at, in windows: often enough to stop within a sixth of one. */
const CHECKS_PER_WINDOW = 6;

export function floorText(floor: RateFloor): string {
  const rate =
    floor.bytesPerSecond >= 1024 && floor.bytesPerSecond % 1024 === 0
      ? `${String(floor.bytesPerSecond / 1024)} KiB/s`
      : `${String(floor.bytesPerSecond)} bytes/s`;
  const seconds = floor.windowMs / 1000;
  return `${rate} over ${String(seconds)} s`;
}

/**
 * `source`, read through a meter that stops it when it is too slow. Errors of either side
 * reach whoever reads the result; destroying the result stops the source too.
 */
export function withRateFloor(
  source: Readable,
  floor: RateFloor,
  tooSlow: (received: number) => Error,
  highWaterMark?: number,
): Readable {
  let received = 0;
  const meter = owned(
    new Transform({
      ...(highWaterMark === undefined ? {} : { readableHighWaterMark: highWaterMark }),
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        callback(null, chunk);
      },
    }),
  );
  let samples = [{ at: Date.now(), bytes: 0 }];
  const timer = setInterval(
    () => {
      const now = Date.now();
      if (meter.readableLength > 0) {
        samples = [{ at: now, bytes: received }];
        return;
      }
      samples.push({ at: now, bytes: received });
      while (samples.length > 1 && (samples[1]?.at ?? now) <= now - floor.windowMs) {
        samples.shift();
      }
      const base = samples[0] ?? { at: now, bytes: received };
      const elapsed = now - base.at;
      if (elapsed < floor.windowMs) return;
      if ((received - base.bytes) * 1000 < floor.bytesPerSecond * elapsed) {
        meter.destroy(tooSlow(received));
      }
    },
    Math.max(5, Math.floor(floor.windowMs / CHECKS_PER_WINDOW)),
  );
  // Never what keeps the process alive: a body nobody reads any more is stopped anyway.
  timer.unref();
  meter.once('close', () => {
    clearInterval(timer);
  });
  // The source is owned here too: once the pipeline has let go of it (the meter dropped), it
  // may still emit the error its own destruction makes (undici's body does, a turn later).
  pipeline(owned(source), meter, () => {
    clearInterval(timer);
  });
  return meter;
}

/** A response's body as the API layer reads it: a stream that can also be dropped cleanly. */
export interface ResponseBody extends Readable {
  /** Reads what is left of a small body (so that the connection is kept), else drops it. */
  dump(): Promise<void>;
}

/**
 * A body dumped is read to its end when it is this small, which keeps its connection for the
 * next request (undici's own dump reads as much); a larger one is dropped with its connection.
 */
const DUMP_LIMIT = 128 * 1024;

/** `source` behind the rate floor, with `dump`. */
export function meteredBody(
  source: Readable,
  floor: RateFloor,
  tooSlow: (received: number) => Error,
): ResponseBody {
  const body = withRateFloor(source, floor, tooSlow) as ResponseBody;
  body.dump = async () => {
    let size = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > DUMP_LIMIT) break;
      }
    } catch {
      // Nothing of it was wanted: how it ended does not matter.
    }
    discard(body);
  };
  return body;
}
