// @vitest-environment happy-dom
/**
 * The window's title: it says what of the user's no worker can start, after the count of
 * unread failures, and goes back to the plain title once all of it can.
 */
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QueueStuck } from '@shared/contract';
import { WithServer } from './support/with-server';

afterEach(cleanup);

// The hook keeps the title the page had when it was loaded: index.html's, set here first.
const plain = 'Debusine Desktop';
let useUnreadFailuresTitle: () => void;
beforeAll(async () => {
  document.title = plain;
  ({ useUnreadFailuresTitle } = await import('@renderer/shell/page-notifications'));
});

function Titled(): null {
  useUnreadFailuresTitle();
  return null;
}

describe('the window’s title', () => {
  it('says what of the user’s cannot start, and nothing once it can', async () => {
    let answer: QueueStuck = {
      architectures: [{ name: 'arm64', waiting: 2 }],
      workRequestIds: [95, 94],
    };
    const view = render(
      <WithServer handlers={{ 'queue.stuck': () => answer }}>
        <Titled />
      </WithServer>,
    );
    await waitFor(() => {
      expect(document.title).toBe(
        `${plain} · 2 of yours cannot start: no arm64 worker is connected`,
      );
    });
    answer = { architectures: [], workRequestIds: [] };
    view.unmount();
    render(
      <WithServer handlers={{ 'queue.stuck': () => answer }}>
        <Titled />
      </WithServer>,
    );
    await waitFor(() => {
      expect(document.title).toBe(plain);
    });
  });
});
