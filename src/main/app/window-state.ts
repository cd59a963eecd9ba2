/**
 * The main window's size, place and maximised state, kept across restarts in a small JSON
 * file. A saved place that no longer lies on any display (a monitor was unplugged) is
 * dropped, keeping the size, so the window never opens off-screen.
 */
import { readFile } from 'node:fs/promises';
import { writeJsonFile } from '../json-file';

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1200, height: 800, maximized: false };

const int = (v: unknown, min: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v < 100_000;
const coord = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 100_000;

export function parseWindowState(value: unknown): WindowState {
  if (typeof value !== 'object' || value === null) return DEFAULT_WINDOW_STATE;
  const v = value as Record<string, unknown>;
  if (!int(v.width, 400) || !int(v.height, 300)) return DEFAULT_WINDOW_STATE;
  const state: WindowState = { width: v.width, height: v.height, maximized: v.maximized === true };
  if (coord(v.x) && coord(v.y)) {
    state.x = v.x;
    state.y = v.y;
  }
  return state;
}

/** Keeps the place only when the window's top-left area lies on one of the displays. */
export function fitToDisplays(state: WindowState, displays: readonly Area[]): WindowState {
  if (state.x === undefined || state.y === undefined) return state;
  const { x, y } = state;
  const visible = displays.some(
    (d) => x + 50 >= d.x && y >= d.y && x + 100 <= d.x + d.width && y + 50 <= d.y + d.height,
  );
  return visible ? state : { width: state.width, height: state.height, maximized: state.maximized };
}

export async function loadWindowState(file: string): Promise<WindowState> {
  try {
    return parseWindowState(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return DEFAULT_WINDOW_STATE;
  }
}

/** Atomically: a quit or a crash mid-write leaves the previous state, not half a file. */
export async function saveWindowState(file: string, state: WindowState): Promise<void> {
  await writeJsonFile(file, state, 0o600);
}
