import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  CHALLENGE_PATTERN,
  makeChallenge,
  makeNonce,
  NONCE_PATTERN,
} from '../../src/main/enroll/challenge';
import { confirmUrlFor, parseEnrollAnswer, requestToken } from '../../src/main/enroll/enroll';

describe('enrollment', () => {
  it('makes nonces and challenges the server accepts', () => {
    for (let i = 0; i < 200; i++) {
      expect(makeNonce()).toMatch(NONCE_PATTERN);
      expect(makeChallenge()).toMatch(CHALLENGE_PATTERN);
    }
    expect(confirmUrlFor('https://h/sub/', 'abcdefgh')).toBe(
      'https://h/sub/-/enroll/confirm/abcdefgh',
    );
  });

  it('reads the answer after keepalive newlines, and validates it', () => {
    const token = 'f'.repeat(64);
    expect(parseEnrollAnswer(`\n\n\n{"outcome":"confirm","token":"${token}"}`)).toEqual({
      outcome: 'confirm',
      token,
    });
    expect(parseEnrollAnswer('{"outcome":"cancel","token":null}')).toEqual({ outcome: 'cancel' });
    expect(() => parseEnrollAnswer('{"outcome":"confirm","token":"bad token!"}')).toThrow(
      /no valid token/,
    );
    expect(() => parseEnrollAnswer('{"outcome":"confirm","token":"abcdefgh","x":1}')).toThrow(
      /unexpected shape/,
    );
    expect(() => parseEnrollAnswer('\n\n')).toThrow(/without an answer/);
  });

  it('posts exactly application/json to {api}/enroll/ without a Token header', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    let seen: { headers: Record<string, string>; body: Record<string, unknown> } | undefined;
    agent
      .get('http://h')
      .intercept({ path: '/api/enroll/', method: 'POST' })
      .reply(200, (options) => {
        seen = {
          headers: options.headers as Record<string, string>,
          body: JSON.parse(options.body as string) as Record<string, unknown>,
        };
        return '\n{"outcome":"cancel","token":null}';
      });
    const opened: string[] = [];
    const result = await requestToken({
      apiUrl: 'http://h/api/',
      scope: 'debusine',
      hostname: 'box',
      openExternal: (u) => {
        opened.push(u);
      },
      dispatcher: agent,
    });
    expect(result).toEqual({ outcome: 'cancel' });
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(Object.keys(seen?.headers ?? {}).map((k) => k.toLowerCase())).not.toContain('token');
    expect(Object.keys(seen?.body ?? {}).sort()).toEqual([
      'challenge',
      'hostname',
      'nonce',
      'scope',
    ]);
    expect(opened).toEqual([`http://h/-/enroll/confirm/${String(seen?.body.nonce)}`]);
  });

  it('maps a refused request to a validation error', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('http://h')
      .intercept({ path: '/api/enroll/', method: 'POST' })
      .reply(
        400,
        { title: 'duplicate or invalid request received' },
        { headers: { 'content-type': 'application/problem+json' } },
      );
    await expect(
      requestToken({
        apiUrl: 'http://h/api',
        scope: 's',
        openExternal: () => undefined,
        dispatcher: agent,
      }),
    ).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringMatching(/duplicate/) as string,
    });
  });
});
