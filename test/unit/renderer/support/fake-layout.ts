/**
 * A screen's layout for renderer tests of scrolling views. happy-dom lays nothing out:
 * here every box gets a screen's size (540 by 800), a box's scroll height is its first
 * child's height (the list's content is one box as tall as all its rows), and it scrolls
 * as a browser does (happy-dom keeps scrollTop within a height of 0): the position moves,
 * and a scroll event says so. Each test gets it afresh; the real properties come back after.
 */
import { afterEach, beforeEach } from 'vitest';

const NAMES = ['clientHeight', 'clientWidth', 'scrollTop', 'scrollHeight', 'scrollTo'] as const;

export function useFakeLayout(): void {
  const saved = NAMES.map(
    (name) => [name, Object.getOwnPropertyDescriptor(HTMLElement.prototype, name)] as const,
  );

  beforeEach(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get: () => 540,
    });
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
      configurable: true,
      get: () => 800,
    });
    const tops = new WeakMap<Element, number>();
    Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
      configurable: true,
      get(this: HTMLElement) {
        const inner = this.firstElementChild;
        const height = inner instanceof HTMLElement ? parseFloat(inner.style.height) : NaN;
        return Number.isNaN(height) ? 540 : Math.max(540, height);
      },
    });
    Object.defineProperty(HTMLElement.prototype, 'scrollTop', {
      configurable: true,
      get(this: Element) {
        return tops.get(this) ?? 0;
      },
      set(this: Element, top: number) {
        tops.set(this, top);
      },
    });
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', {
      configurable: true,
      value(this: HTMLElement, options: ScrollToOptions) {
        this.scrollTop = options.top ?? 0;
        this.dispatchEvent(new Event('scroll'));
      },
    });
  });

  afterEach(() => {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor);
      else Reflect.deleteProperty(HTMLElement.prototype, name);
    }
  });
}
