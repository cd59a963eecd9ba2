/**
 * A notification's "Open in browser" opens a page of the server that sent the work
 * request, and nothing else: the path comes from the server (`url`) or, on servers that
 * send none, from its scope and workspace; a path that leads to another site is refused.
 */
import { describe, expect, it } from 'vitest';
import { workRequestWebPage } from '../../src/main/watch/web-page';
import type { WorkRequestResponse } from '../../src/shared/models';
import { workRequestFixture } from '../support/work-requests';

const site = 'https://debusine.example.org';

function sourceOf(workRequest: WorkRequestResponse) {
  return { workRequestGet: () => Promise.resolve(workRequest), http: { siteUrl: site } };
}

describe('workRequestWebPage', () => {
  it("takes the server's own path, on the server's site", async () => {
    const wr = workRequestFixture(7, { url: '/debian/developers/work-request/7/' });
    await expect(workRequestWebPage(sourceOf(wr), 7)).resolves.toBe(
      `${site}/debian/developers/work-request/7/`,
    );
  });

  it('builds the path from the scope and workspace when the server sends none', async () => {
    const wr = workRequestFixture(7, { scope: 'debian', workspace: 'developers' });
    delete wr.url;
    await expect(workRequestWebPage(sourceOf(wr), 7)).resolves.toBe(
      `${site}/debian/developers/work-request/7/`,
    );
  });

  it("uses Debusine's default scope when the server names none (0.11 sends none)", async () => {
    const wr = workRequestFixture(7, { workspace: 'developers', scope: null });
    delete wr.url;
    await expect(workRequestWebPage(sourceOf(wr), 7)).resolves.toBe(
      `${site}/debusine/developers/work-request/7/`,
    );
  });

  it.each([
    ['an absolute address', 'https://evil.example/debian/work-request/7/'],
    ['a scheme-relative one', '//evil.example/work-request/7/'],
    ['a backslash the URL parser reads as a slash', '/\\evil.example/work-request/7/'],
    ['a javascript: address', 'javascript:alert(1)'],
  ])('refuses %s, naming the work request', async (_, url) => {
    const wr = workRequestFixture(7, { url });
    await expect(workRequestWebPage(sourceOf(wr), 7)).rejects.toThrow(
      'Work request 7 links off-site',
    );
  });
});
