// @vitest-environment happy-dom
/**
 * The theme choice is one radio group: each segment is a radio named "theme" with its value,
 * the current theme is the checked one, and choosing another sets it.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppearanceSection } from '@renderer/screens/settings/appearance';
import { useUiStore } from '@renderer/state/ui-store';

afterEach(cleanup);

describe('AppearanceSection', () => {
  it('checks the current theme and sets the one chosen', () => {
    useUiStore.setState({ theme: 'light' });
    render(<AppearanceSection />);
    const radios = screen.getAllByRole<HTMLInputElement>('radio');
    expect(radios.map((r) => [r.name, r.value, r.checked])).toEqual([
      ['theme', 'system', false],
      ['theme', 'light', true],
      ['theme', 'dark', false],
    ]);
    expect(radios[0]?.closest('label')?.className).toBe('segmented-option');
    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(useUiStore.getState().theme).toBe('dark');
  });
});
