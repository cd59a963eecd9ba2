// @vitest-environment happy-dom
/**
 * The button that starts a mutation: a click sends its one input, it is disabled while the
 * mutation runs (a second click cannot send the request again) and for the caller's own
 * reasons, and the rest of its props reach the button.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutateButton } from '@renderer/components/mutate-button';

afterEach(cleanup);

describe('MutateButton', () => {
  it('sends its input on click, as a plain button', () => {
    const mutate = vi.fn();
    render(
      <MutateButton
        className="button small"
        title="t"
        mutation={{ isPending: false, mutate }}
        input={7}
      >
        Go
      </MutateButton>,
    );
    const button = screen.getByRole('button', { name: 'Go' });
    expect(button.getAttribute('type')).toBe('button');
    expect(button.className).toBe('button small');
    expect(button.getAttribute('title')).toBe('t');
    fireEvent.click(button);
    expect(mutate).toHaveBeenCalledTimes(1);
    expect(mutate).toHaveBeenCalledWith(7);
  });

  it('is disabled while the mutation runs, and sends nothing then', () => {
    const mutate = vi.fn();
    render(
      <MutateButton className="button" mutation={{ isPending: true, mutate }} input="x">
        Go
      </MutateButton>,
    );
    const button = screen.getByRole('button', { name: 'Go' });
    expect(button).toHaveProperty('disabled', true);
    fireEvent.click(button);
    expect(mutate).not.toHaveBeenCalled();
  });

  it('is disabled for the caller’s reasons too', () => {
    const mutate = vi.fn();
    render(
      <MutateButton className="button" mutation={{ isPending: false, mutate }} input="x" disabled>
        Go
      </MutateButton>,
    );
    expect(screen.getByRole('button', { name: 'Go' })).toHaveProperty('disabled', true);
  });
});
