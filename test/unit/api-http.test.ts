import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DebusineClient } from '../../src/main/api/client';
import { collect } from '../../src/main/api/pagination';
import { DebusineError } from '../../src/shared/errors';
import { rejection } from '../support/clients';

const ORIGIN = 'http://debusine.test';
const TOKEN = 'c0ffee'.repeat(10) + 'abcd';
const PROBLEM = { 'content-type': 'application/problem+json' };
const JSON_TYPE = { 'content-type': 'application/json' };

const workRequest = {
  id: 7,
  created_at: '2026-01-01T00:00:00Z',
  status: 'pending',
  result: '',
  task_type: 'Worker',
  task_name: 'noop',
  task_data: {},
  priority_base: 0,
  priority_adjustment: 0,
  artifacts: [],
  workspace: 'System',
};

let agent: MockAgent;
let client: DebusineClient;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  client = new DebusineClient({
    apiUrl: `${ORIGIN}/api/`,
    token: TOKEN,
    scope: 'debusine',
    dispatcher: agent,
    retries: 2,
    retryBaseMs: 1,
    readTimeoutMs: 200,
  });
});
afterEach(async () => {
  await agent.close();
});

const pool = () => agent.get(ORIGIN);

function mockWhoami(current = true): void {
  pool()
    .intercept({ path: '/api/1.0/whoami/', method: 'GET' })
    .reply(
      200,
      current
        ? { user: 'alice', auth: true, work_request: null, worker: false }
        : { user: 'alice', auth: true, worker_token: false },
      { headers: JSON_TYPE },
    )
    .persist();
}

describe('HttpTransport', () => {
  it('sends Token, X-Debusine-Scope, User-Agent and uses /1.0', async () => {
    let seen: Record<string, string> = {};
    pool()
      .intercept({ path: '/api/1.0/work-request/7/', method: 'GET' })
      .reply((options) => {
        seen = options.headers as Record<string, string>;
        return { statusCode: 200, data: workRequest, responseOptions: { headers: JSON_TYPE } };
      });
    await client.workRequestGet(7);
    expect(seen.token).toBe(TOKEN);
    expect(seen['x-debusine-scope']).toBe('debusine');
    expect(seen['user-agent']).toMatch(/^debusine-desktop\//);
  });

  it('retries a GET after 502, then succeeds', async () => {
    pool().intercept({ path: '/api/1.0/work-request/7/', method: 'GET' }).reply(502, 'bad gateway');
    pool()
      .intercept({ path: '/api/1.0/work-request/7/', method: 'GET' })
      .reply(200, workRequest, { headers: JSON_TYPE });
    expect((await client.workRequestGet(7)).id).toBe(7);
  });

  it('does not retry a POST after 500, nor after 503', async () => {
    pool().intercept({ path: '/api/1.0/work-request/', method: 'POST' }).reply(500, 'boom');
    const error = await rejection(
      client.workRequestCreate({ task_name: 'noop', task_data: {}, event_reactions: {} }),
    );
    expect(error.code).toBe('server');
    expect(error.details.status).toBe(500);
    pool().intercept({ path: '/api/1.0/work-request/', method: 'POST' }).reply(503, 'busy');
    // Only one interceptor: a retry would hit disableNetConnect and fail as a network error.
    expect(
      (
        await rejection(
          client.workRequestCreate({ task_name: 'noop', task_data: {}, event_reactions: {} }),
        )
      ).code,
    ).toBe('server');
  });

  it.each([
    ['a string', 'Workspace X not found', 'Workspace X not found'],
    ['a list', ['first', 'second'], 'first; second'],
    ['an object', { data: ['invalid artifact data: x'] }, 'data: invalid artifact data: x'],
  ])('maps problem+json with detail as %s', async (_label, detail, text) => {
    pool()
      .intercept({ path: '/api/1.0/work-request/7/', method: 'GET' })
      .reply(400, { title: 'Error', detail }, { headers: PROBLEM });
    const error = await rejection(client.workRequestGet(7));
    expect(error.code).toBe('validation');
    expect(error.details).toMatchObject({ status: 400, title: 'Error', detail });
    expect(error.message).toContain(text);
  });

  it('keeps validation errors', async () => {
    pool()
      .intercept({ path: '/api/1.0/work-request/', method: 'POST' })
      .reply(
        400,
        { title: 'Cannot deserialize work request', validation_errors: { task_name: ['bad'] } },
        { headers: PROBLEM },
      );
    const error = await rejection(
      client.workRequestCreate({ task_name: 'noop', task_data: {}, event_reactions: {} }),
    );
    expect(error.details.validationErrors).toEqual({ task_name: ['bad'] });
    expect(error.message).toContain('task_name: bad');
  });

  it.each([
    [403, 'Authentication credentials were not provided.', 'auth'],
    [403, 'You do not have permission to perform this action.', 'forbidden'],
    [404, 'Not found.', 'not-found'],
    [409, 'Invalid file hash', 'conflict'],
    [412, 'Collection relations changed', 'conflict'],
  ])('maps %i %s to %s', async (status, detail, code) => {
    pool()
      .intercept({ path: '/api/1.0/work-request/7/', method: 'GET' })
      .reply(status, { title: 'Error', detail }, { headers: PROBLEM });
    expect((await rejection(client.workRequestGet(7))).code).toBe(code);
  });

  it('maps an HTML 404 to not-found with a hint', async () => {
    pool()
      .intercept({ path: '/api/1.0/work-request/7/', method: 'GET' })
      .reply(404, '<html>404</html>', { headers: { 'content-type': 'text/html' } });
    const error = await rejection(client.workRequestGet(7));
    expect(error.code).toBe('not-found');
    expect(error.message).toContain('scope');
  });

  it('times out (after retries for a GET) against a server that never answers', async () => {
    // MockAgent does not enforce undici's time-outs, so a real loopback server stalls here.
    let hits = 0;
    const server = createServer(() => {
      hits++;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const slow = new DebusineClient({
      apiUrl: `http://127.0.0.1:${String(port)}/api`,
      token: TOKEN,
      retries: 1,
      retryBaseMs: 1,
      readTimeoutMs: 100,
    });
    try {
      const error = await rejection(slow.workRequestGet(7));
      expect(error.code).toBe('timeout');
      expect(hits).toBe(2);
      expect(error.message).not.toContain(TOKEN);
    } finally {
      await slow.close();
      server.closeAllConnections();
      server.close();
    }
  });

  it('sends a POST on a connection of its own, so an idle one the server drops cannot lose it', async () => {
    // The server drops a kept-alive connection when the next request arrives on it, as
    // gunicorn does when its keep-alive time ends just as the request comes: the request is
    // never read, so a POST sent there fails although the server is up.
    const seen: { method: string | undefined; reused: boolean }[] = [];
    const served = new WeakSet<object>();
    const server = createServer((req, res) => {
      const reused = served.has(req.socket);
      seen.push({ method: req.method, reused });
      if (reused) {
        req.socket.destroy();
        return;
      }
      served.add(req.socket);
      req.resume();
      req.on('end', () => {
        res.writeHead(req.method === 'POST' ? 201 : 200, JSON_TYPE);
        res.end(JSON.stringify(workRequest));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const real = new DebusineClient({
      apiUrl: `http://127.0.0.1:${String(port)}/api`,
      token: TOKEN,
      retryBaseMs: 1,
    });
    try {
      expect((await real.workRequestGet(7)).id).toBe(7);
      // The GET's connection is idle again once its answer has been read to the end.
      await sleep(50);
      const created = await real.workRequestCreate({
        task_name: 'noop',
        task_data: {},
        event_reactions: {},
      });
      expect(created.id).toBe(7);
      // The GET again: a reused connection that fails is retried on a new one.
      await sleep(50);
      expect((await real.workRequestGet(7)).id).toBe(7);
      const posts = seen.filter((s) => s.method === 'POST');
      expect(posts).toEqual([{ method: 'POST', reused: false }]);
    } finally {
      await real.close();
      server.closeAllConnections();
      server.close();
    }
  });

  it('names the field and operation of a response that does not fit', async () => {
    pool()
      .intercept({ path: '/api/1.0/work-request/7/', method: 'GET' })
      .reply(200, { ...workRequest, status: 5 }, { headers: JSON_TYPE });
    const error = await rejection(client.workRequestGet(7));
    expect(error.code).toBe('bad-response');
    expect(error.details).toMatchObject({ operation: 'workRequestGet', field: 'status' });
  });

  it('never puts the token in messages or details', async () => {
    pool().intercept({ path: '/api/1.0/work-request/7/', method: 'GET' }).reply(
      403,
      { title: 'Error', detail: 'Authentication credentials were not provided.' },
      {
        headers: PROBLEM,
      },
    );
    const error = await rejection(client.workRequestGet(7));
    expect(JSON.stringify(error.toJSON())).not.toContain(TOKEN);
    expect(error.message).not.toContain(TOKEN);
    const network = await rejection(client.workRequestGet(8));
    expect(network.code).toBe('network');
    expect(JSON.stringify(network.toJSON()) + network.message).not.toContain(TOKEN);
  });
});

describe('DebusineClient over a mocked server', () => {
  it('follows page and cursor pagination lazily', async () => {
    mockWhoami();
    pool()
      .intercept({ path: '/api/1.0/work-request/', method: 'GET' })
      .reply(
        200,
        {
          next: `${ORIGIN}/api/1.0/work-request/?cursor=abc`,
          previous: null,
          results: [workRequest],
        },
        { headers: JSON_TYPE },
      );
    pool()
      .intercept({ path: '/api/1.0/work-request/?cursor=abc', method: 'GET' })
      .reply(200, { next: null, results: [{ ...workRequest, id: 6 }] }, { headers: JSON_TYPE });
    const ids = (await collect(client.workRequestIter())).map((w) => w.id);
    expect(ids).toEqual([7, 6]);
    pool()
      .intercept({ path: '/api/1.0/collection/System/', method: 'GET' })
      .reply(
        200,
        {
          count: 2,
          // A proxy may report the wrong scheme: the page is still fetched from the API origin.
          next: 'https://debusine.test/api/1.0/collection/System/?page=2',
          results: [{ id: 1, name: 'a', category: 'debian:suite', data: {} }],
        },
        { headers: JSON_TYPE },
      );
    pool()
      .intercept({ path: '/api/1.0/collection/System/?page=2', method: 'GET' })
      .reply(
        200,
        {
          count: 2,
          next: null,
          results: [{ id: 2, name: 'b', category: 'debian:suite', data: {} }],
        },
        { headers: JSON_TYPE },
      );
    const names = (await collect(client.collectionIter('System'))).map((c) => c.name);
    expect(names).toEqual(['a', 'b']);
  });

  it('answers unsupported for an operation an earlier server lacks', async () => {
    mockWhoami(false);
    pool().intercept({ path: '/api/1.0/open-metrics/', method: 'GET' }).reply(404, '<html/>');
    const error = await rejection(client.collectionGet('System', 'debian:suite', 'x'));
    expect(error.code).toBe('unsupported');
    expect(error.message).toContain(`${ORIGIN}/api (Debusine 0.11)`);
    expect(error.details.server).toBe(`${ORIGIN}/api`);
  });

  it('turns an HTML 404 on a route a server lacks into unsupported', async () => {
    mockWhoami();
    pool()
      .intercept({ path: '/api/1.0/work-request/7/confirm/', method: 'POST' })
      .reply(404, '<html/>', { headers: { 'content-type': 'text/html' } });
    expect((await rejection(client.workRequestConfirm(7))).code).toBe('unsupported');
  });

  it('refuses bad arguments before sending', async () => {
    expect((await rejection(client.workRequestGet(-1))).code).toBe('validation');
    expect((await rejection(client.relationList({}))).code).toBe('validation');
    expect(client.webuiUrl('/debusine/System/artifact/1/')).toBe(
      `${ORIGIN}/debusine/System/artifact/1/`,
    );
    expect(() => client.webuiUrl('https://evil.test/x')).toThrow(DebusineError);
  });
});

describe('one request path, one error policy', () => {
  const HTML = { headers: { 'content-type': 'text/html' } };

  it('is unsupported for an HTML 404 on any route once the URL and scope are known good', async () => {
    mockWhoami();
    for (const path of ['/api/1.0/work-request/7/', '/api/1.0/artifact/7/']) {
      pool().intercept({ path, method: 'GET' }).reply(404, '<html/>', HTML);
    }
    const byGet = await rejection(client.workRequestGet(7));
    expect(byGet).toMatchObject({ code: 'unsupported', details: { server: `${ORIGIN}/api` } });
    expect((await rejection(client.artifactGet(7))).code).toBe('unsupported');
  });

  it('is not-found for an HTML 404 where the URL or scope is wrong, naming the operation', async () => {
    // A wrong scope: Django answers every API URL, whoami too, with its HTML 404 page.
    pool()
      .intercept({ path: '/api/1.0/whoami/', method: 'GET' })
      .reply(404, '<html/>', HTML)
      .persist();
    pool()
      .intercept({ path: '/api/1.0/work-request/7/retry/', method: 'POST' })
      .reply(404, '<html/>', HTML);
    const error = await rejection(client.workRequestRetry(7));
    expect(error.code).toBe('not-found');
    expect(error.details.operation).toBe('workRequestRetry');
    expect(error.message).toBe(
      'workRequestRetry: not found (HTTP 404). Check the server URL and scope.',
    );
  });

  it('keeps an API view 404 (problem+json) not-found, whatever the revision', async () => {
    mockWhoami();
    pool()
      .intercept({ path: '/api/1.0/artifact/7/', method: 'GET' })
      .reply(404, { title: 'No Artifact matches the given query.' }, { headers: PROBLEM });
    const error = await rejection(client.artifactGet(7));
    expect(error.code).toBe('not-found');
    expect(error.message).toBe('No Artifact matches the given query.');
  });

  it('maps a status no API view sends to `server`', async () => {
    pool().intercept({ path: '/api/1.0/work-request/7/', method: 'GET' }).reply(418, 'teapot');
    const error = await rejection(client.workRequestGet(7));
    expect(error.code).toBe('server');
    expect(error.message).toBe('workRequestGet: unexpected answer from the server (HTTP 418)');
  });

  it.each([
    ['204 and no body', 204, ''],
    ['200 and an empty body', 200, ' '],
  ])('re-reads a work request whose update answers %s', async (_name, status, body) => {
    pool().intercept({ path: '/api/1.0/work-request/7/', method: 'PATCH' }).reply(status, body);
    pool()
      .intercept({ path: '/api/1.0/work-request/7/', method: 'GET' })
      .reply(200, { ...workRequest, priority_adjustment: -5 }, { headers: JSON_TYPE });
    expect((await client.workRequestUpdate(7, -5)).priority_adjustment).toBe(-5);
  });

  it('reads the updated work request from the answer, or says it is not JSON', async () => {
    pool()
      .intercept({ path: '/api/1.0/work-request/7/', method: 'PATCH' })
      .reply(200, { ...workRequest, priority_adjustment: 3 }, { headers: JSON_TYPE });
    expect((await client.workRequestUpdate(7, 3)).priority_adjustment).toBe(3);
    pool().intercept({ path: '/api/1.0/work-request/7/', method: 'PATCH' }).reply(200, '<html/>');
    const error = await rejection(client.workRequestUpdate(7, 3));
    expect(error).toMatchObject({ code: 'bad-response', details: { status: 200 } });
    expect(error.message).toBe("workRequestUpdate: the server's answer is not JSON");
  });
});
