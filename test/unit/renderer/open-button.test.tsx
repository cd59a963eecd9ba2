// @vitest-environment happy-dom
/**
 * The button that names a work request or an artifact by id opens that one's page in its
 * area, reads `#id` unless given words of its own, and passes its class and aria props on.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenButton } from '@renderer/kit/open-button';
import { useUiStore } from '@renderer/state/ui-store';
import { SERVER_A } from './support/server-a';
import { WithServer } from './support/with-server';

beforeEach(() => {
  useUiStore.setState({ area: 'settings', detail: null });
});
afterEach(cleanup);

/** Clicks `button`: the page of `detail` opens in `area`, on the server shown. */
function expectClickOpens(
  button: HTMLElement,
  area: string,
  detail: { kind: string; id: number },
): void {
  fireEvent.click(button);
  expect(useUiStore.getState().area).toBe(area);
  expect(useUiStore.getState().detail).toEqual({ ...detail, server: SERVER_A.id });
}

describe('OpenButton', () => {
  it('opens a work request’s page, reading #id', () => {
    render(
      <WithServer>
        <OpenButton kind="work-request" id={42} className="link-button wr-id" />
      </WithServer>,
    );
    const button = screen.getByRole('button', { name: '#42' });
    expect(button.getAttribute('type')).toBe('button');
    expect(button.className).toBe('link-button wr-id');
    expectClickOpens(button, 'work-requests', { kind: 'work-request', id: 42 });
  });

  it('opens an artifact’s page, with its own words and label', () => {
    render(
      <WithServer>
        <OpenButton kind="artifact" id={7} className="button small" aria-label="Open artifact 7">
          Open it
        </OpenButton>
      </WithServer>,
    );
    const button = screen.getByRole('button', { name: 'Open artifact 7' });
    expect(button.textContent).toBe('Open it');
    expectClickOpens(button, 'artifacts', { kind: 'artifact', id: 7 });
  });
});
