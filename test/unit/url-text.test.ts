/**
 * A URL quoted in an error message never shows its user name or password, and a download
 * refused after a redirect says that the server redirected it, not that the artifact lists
 * that URL.
 */
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpTransport, normaliseApiUrl } from '../../src/main/api/http';
import { fetchBody } from '../../src/main/artifacts/transfer/fetch-body';
import { DebusineError } from '../../src/shared/errors';
import { urlText } from '../../src/shared/url-text';

describe('urlText', () => {
  it('drops the user name and password of a URL', () => {
    expect(urlText('http://user:secret@evil.test/f?x=1')).toBe('http://evil.test/f?x=1');
    expect(urlText('https://user@evil.test/')).toBe('https://evil.test/');
    expect(urlText('ftp://u:p@h/x')).toBe('ftp://h/x');
  });

  it('drops them from what is no URL too', () => {
    const text = urlText('file://u:secret@h/x');
    expect(text).not.toContain('secret');
    expect(urlText('http://u:secret@[bad/x')).not.toContain('secret');
  });

  it('keeps a URL without userinfo as it is, and bounds a long one', () => {
    expect(urlText('https://debusine.example/api/')).toBe('https://debusine.example/api/');
    expect(urlText(`https://h/${'a'.repeat(5000)}`).length).toBeLessThanOrEqual(200);
  });
});

describe('an API URL that is refused', () => {
  it('is quoted without its password', () => {
    let error: unknown;
    try {
      normaliseApiUrl('http://user:secret@[x/api/');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DebusineError);
    expect((error as Error).message).not.toContain('secret');
  });
});

describe('a download redirected to a URL with a password', () => {
  const ORIGIN = 'http://debusine.test';
  let agent: MockAgent;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
  });
  afterEach(async () => {
    await agent.close();
  });

  it('is refused, says it was a redirect, and never quotes the password', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/artifact/5/a.txt', method: 'GET' })
      .reply(302, '', { headers: { location: 'http://user:secret@storage.test/a.txt' } });
    const http = new HttpTransport({ apiUrl: `${ORIGIN}/api/`, token: 't', dispatcher: agent });
    const error = await fetchBody(http, `${ORIGIN}/artifact/5/a.txt`, {
      artifact: 5,
      file: 'a.txt',
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DebusineError);
    const { message, details } = error as DebusineError;
    expect(message).not.toContain('secret');
    expect(message).not.toContain('user:');
    expect(JSON.stringify(details)).not.toContain('secret');
    expect(message).toContain('redirected');
    expect(message).toContain('http://storage.test/a.txt');
    expect(message).not.toContain('has the URL');
    expect(details).toMatchObject({ rule: 'artifact-url' });
  });
});
