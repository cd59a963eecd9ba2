/**
 * How much of an answer the HTTP layer reads: a JSON answer up to JSON_BODY_LIMIT, the
 * body of a refusal up to ERROR_BODY_LIMIT, and not a byte is waited for past them. A local
 * server sends the answers and counts the bytes it handed to the connection.
 */
import { createServer, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY_LIMIT, formatLimit, JSON_BODY_LIMIT } from '../../src/main/api/body-limits';
import { exchange } from '../../src/main/api/exchange';
import { HttpTransport } from '../../src/main/api/http';
import { DebusineError } from '../../src/shared/errors';
import { whoamiSchema } from '../../src/shared/models';
import { listenOnLoopback, sendAsRead, type Listening, type Sent } from '../support/loopback-http';

/** What the server may have handed to the connection beyond what was read: socket buffers. */
const IN_FLIGHT = 16 * 2 ** 20;

/** An answer: its status, its headers, and its body in pieces, sent as the client reads. */
interface Answer {
  status: number;
  headers: OutgoingHttpHeaders;
  pieces: () => Iterator<string>;
}

let listening: Listening;
let transport: HttpTransport;
const answers = new Map<string, Answer>();
const sent = new Map<string, Promise<Sent>>();

function send(answer: Answer, res: ServerResponse): Promise<Sent> {
  res.writeHead(answer.status, answer.headers);
  return sendAsRead(res, answer.pieces());
}

beforeAll(async () => {
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    const answer = answers.get(path);
    if (!answer) return void res.writeHead(404).end();
    sent.set(path, send(answer, res));
  });
  listening = await listenOnLoopback(server);
  transport = new HttpTransport({ apiUrl: `${listening.origin}/api`, token: 't', retries: 0 });
});
afterAll(async () => {
  await transport.close();
  await listening.close();
});

/** `head`, then `x` up to `length` bytes in all, then `tail`, in pieces of 64 KiB. */
function* padded(head: string, length: number, tail: string): Generator<string> {
  yield head;
  let left = length - head.length - tail.length;
  while (left > 0) {
    const n = Math.min(left, 64 * 1024);
    yield 'x'.repeat(n);
    left -= n;
  }
  yield tail;
}

/** A whoami answer of exactly `length` bytes (its padding in a field the schema keeps). */
function whoamiOf(length: number, contentLength: boolean): Answer {
  const headers: OutgoingHttpHeaders = { 'content-type': 'application/json' };
  if (contentLength) headers['content-length'] = length;
  return {
    status: 200,
    headers,
    pieces: () => padded('{"user":"u","auth":false,"pad":"', length, '"}'),
  };
}

/** A problem+json refusal of `length` bytes: its title, then padding in its detail. */
function problemOf(status: number, length: number, contentLength: boolean): Answer {
  const headers: OutgoingHttpHeaders = { 'content-type': 'application/problem+json' };
  if (contentLength) headers['content-length'] = length;
  return {
    status,
    headers,
    pieces: () => padded('{"title":"Work request is not ready","detail":"', length, '"}'),
  };
}

async function ask(path: string): Promise<unknown> {
  return exchange(transport, { operation: 'whoami', method: 'GET', path, schema: whoamiSchema });
}

async function refusalOf(path: string): Promise<DebusineError> {
  const error = await ask(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DebusineError))
    throw new Error(`expected a DebusineError: ${String(error)}`);
  return error;
}

async function sentFor(path: string): Promise<Sent> {
  const log = sent.get(`/api/1.0${path}`);
  if (!log) throw new Error(`nothing was asked of ${path}`);
  return log;
}

function serve(path: string, answer: Answer): void {
  answers.set(`/api/1.0${path}`, answer);
}

const TOO_LARGE = `The server's answer to whoami is larger than ${formatLimit(JSON_BODY_LIMIT)}`;

describe('a JSON answer', { timeout: 60_000 }, () => {
  it('of exactly the limit is read and parsed', async () => {
    serve('/at-limit/', whoamiOf(JSON_BODY_LIMIT, false));
    await expect(ask('/at-limit/')).resolves.toMatchObject({ user: 'u', auth: false });
    expect(await sentFor('/at-limit/')).toEqual({ bytes: JSON_BODY_LIMIT, closedEarly: false });
  });

  it('one byte over the limit is refused, with the operation and the limit', async () => {
    serve('/over/', whoamiOf(JSON_BODY_LIMIT + 1, false));
    const error = await refusalOf('/over/');
    expect(error.code).toBe('bad-response');
    expect(error.message).toBe(TOO_LARGE);
    expect(error.details).toMatchObject({ operation: 'whoami', status: 200 });
  });

  it('that goes on and on is dropped once past the limit', async () => {
    serve('/endless/', whoamiOf(64 * JSON_BODY_LIMIT, false));
    expect((await refusalOf('/endless/')).message).toBe(TOO_LARGE);
    const log = await sentFor('/endless/');
    expect(log.closedEarly).toBe(true);
    expect(log.bytes).toBeLessThan(JSON_BODY_LIMIT + IN_FLIGHT);
  });

  it('announced longer than the limit is refused before its body is read', async () => {
    serve('/announced/', whoamiOf(8 * JSON_BODY_LIMIT, true));
    expect((await refusalOf('/announced/')).message).toBe(TOO_LARGE);
    const log = await sentFor('/announced/');
    expect(log.closedEarly).toBe(true);
    expect(log.bytes).toBeLessThan(IN_FLIGHT);
  });
});

describe('a refusal', { timeout: 60_000 }, () => {
  it('with a problem+json body within the limit says what the server said', async () => {
    serve('/refused-small/', problemOf(409, ERROR_BODY_LIMIT, false));
    const error = await refusalOf('/refused-small/');
    expect(error.code).toBe('conflict');
    expect(error.message).toMatch(/^Work request is not ready: x+$/);
  });

  // The same refusal, with its body sent on and on, or announced longer than the limit.
  it.each([
    [
      'with a longer body is the status error, and the rest of the body is not read',
      { path: '/refused-endless/', status: 409, announced: false, code: 'conflict' },
      ERROR_BODY_LIMIT + IN_FLIGHT,
    ],
    [
      'announcing a longer body is the status error without reading it',
      { path: '/refused-announced/', status: 500, announced: true, code: 'server' },
      IN_FLIGHT,
    ],
  ] as const)('%s', async (_what, { path, status, announced, code }, sentBelow) => {
    serve(path, problemOf(status, 4 * JSON_BODY_LIMIT, announced));
    const error = await refusalOf(path);
    expect(error.code).toBe(code);
    expect(error.message).toBe(
      `whoami: unexpected answer from the server (HTTP ${String(status)})`,
    );
    const log = await sentFor(path);
    expect(log.closedEarly).toBe(true);
    expect(log.bytes).toBeLessThan(sentBelow);
  });
});
