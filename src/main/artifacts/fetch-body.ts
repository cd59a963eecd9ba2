/**
 * Opening a download: a GET that follows redirects (object storage), sends the token only
 * to the server's own origin, refuses any URL that is not http(s), and hands back the body
 * with the size the server announces. Errors name what was being downloaded.
 */
import type { Readable } from 'node:stream';
import { DebusineError } from '../../shared/errors';
import type { HttpTransport } from '../api/http';
import { errorFromResponse, networkError } from '../api/http-errors';
import { checkDownloadUrl } from './declared-files';
import { asDownloadError, subjectText, type Subject } from './download-errors';

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

export async function fetchBody(
  http: HttpTransport,
  url: string,
  subject: Subject,
  signal?: AbortSignal,
): Promise<OpenedBody> {
  const site = new URL(http.siteUrl).origin;
  let current = new URL(url, http.siteUrl);
  for (let hop = 0; ; hop++) {
    checkDownloadUrl(subject.artifact, current.toString(), subject.file);
    let response;
    try {
      response = await http.dispatcher.request({
        origin: current.origin,
        path: current.pathname + current.search,
        method: 'GET',
        headers: current.origin === site ? http.authHeaders() : {},
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
    return { body: response.body as unknown as Readable, announced };
  }
}
