/**
 * Opening a download: a GET that follows redirects (object storage), sends the token only
 * to the server's own origin, refuses any URL that is not http(s), and hands back the body
 * with the size the server announces. Errors name what was being downloaded.
 *
 * The body handed back can be dropped at any point without harm (streams.ts), and is
 * stopped when the server sends it slower than the transport's rate floor.
 */
import type { Readable } from 'node:stream';
import { DebusineError } from '../../../shared/errors';
import type { HttpTransport } from '../../api/http';
import { errorFromResponse, networkError } from '../../api/http-errors';
import { floorText, withRateFloor } from '../../api/rate-floor';
import { owned } from '../../streams';
import { checkDownloadUrl } from './declared-files';
import { asDownloadError, downloadError, subjectText, type Subject } from './download-errors';

const MAX_REDIRECTS = 5;
/**
 * How much of a response body may wait in memory before the socket is paused. With
 * undici's default (64 KiB), each short wait of the disk paused the socket, and the
 * server's TCP flow control then took tens of milliseconds to start again, thousands of
 * times per download: 10–30 s for 60 MiB that curl fetched in 2–3 s. 4 MiB rides over
 * the disk's pauses (measured: 2–3 s, like curl, every time).
 */
const BODY_BUFFER = 4 * 2 ** 20;

export interface OpenedBody {
  body: Readable;
  /** The Content-Length, when the server sent one. */
  announced: number | undefined;
}

function rethrow(subject: Subject, error: DebusineError): never {
  throw new DebusineError(
    error.code,
    `Downloading ${subjectText(subject)}: ${error.message}`,
    {
      ...error.details,
      artifact: subject.artifact,
      ...(subject.file === undefined ? {} : { file: subject.file }),
    },
    error,
  );
}

/** The body arrives too slowly: it is stopped, with what came and what was expected. */
function tooSlow(http: HttpTransport, subject: Subject, expected: number | undefined) {
  return (received: number) =>
    downloadError(
      'timeout',
      subject,
      'download-rate',
      `The download of ${subjectText(subject)} was stopped: the server sent it slower than ${floorText(http.rateFloor)} (${String(received)}${expected === undefined ? '' : ` of ${String(expected)}`} bytes had arrived)`,
      { received, ...(expected === undefined ? {} : { expected }) },
    );
}

/**
 * Opens `url`. `expected`: the size the artifact declares (or the most the body may take),
 * for messages.
 */
export async function fetchBody(
  http: HttpTransport,
  url: string,
  subject: Subject,
  signal?: AbortSignal,
  expected?: number,
): Promise<OpenedBody> {
  const site = new URL(http.siteUrl).origin;
  let current = new URL(url, http.siteUrl);
  for (let hop = 0; ; hop++) {
    checkDownloadUrl(subject.artifact, current.toString(), subject.file, hop > 0);
    let response;
    try {
      response = await http.dispatcher.request({
        origin: current.origin,
        path: current.pathname + current.search,
        method: 'GET',
        headers: current.origin === site ? http.authHeaders(current) : {},
        signal,
        headersTimeout: 60_000,
        bodyTimeout: 300_000,
        highWaterMark: BODY_BUFFER,
      });
    } catch (error) {
      const mapped = asDownloadError(subject, error, signal);
      if (mapped instanceof DebusineError) throw mapped;
      rethrow(subject, networkError('downloadArtifact', current.toString(), error));
    }
    owned(response.body);
    const location = response.headers.location;
    if ([301, 302, 303, 307, 308].includes(response.statusCode) && typeof location === 'string') {
      await response.body.dump();
      if (hop >= MAX_REDIRECTS) {
        rethrow(subject, new DebusineError('bad-response', 'too many redirects'));
      }
      current = new URL(location, current);
      continue;
    }
    if (response.statusCode !== 200) {
      rethrow(
        subject,
        await errorFromResponse('downloadArtifact', {
          status: response.statusCode,
          headers: response.headers,
          body: response.body,
        }),
      );
    }
    const length = response.headers['content-length'];
    const announced =
      typeof length === 'string' && /^\d+$/.test(length) ? Number(length) : undefined;
    const body = withRateFloor(
      response.body,
      http.rateFloor,
      tooSlow(http, subject, expected ?? announced),
      BODY_BUFFER,
    );
    return { body, announced };
  }
}
