/**
 * A log store on a scratch cache folder, reading from the fake Debusine (a real local
 * HTTP server), for the log viewer's tests: its progress events, the files in its cache
 * folder, and a wait for a handle's state.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { HttpTransport } from '../../src/main/api/http';
import { LogCache } from '../../src/main/logs/log-cache';
import { LogStore } from '../../src/main/logs/log-store';
import type { LogState } from '../../src/shared/log-types';
import type { FakeDebusine } from './fake-debusine';

export interface StoreUnderTest {
  store: LogStore;
  cache: LogCache;
  /** The cache folder. */
  dir: string;
  events: LogState[];
  open(artifactId: number, path: string): Promise<LogState>;
  /** Polls the handle's state until `until` holds (10 s at most). */
  wait(handle: string, until: (state: LogState) => boolean): Promise<LogState>;
  /** What the cache folder holds, sorted (hidden staging folders included). */
  onDisk(): string[];
  /** A second store on the same folder, as after a restart of the app. */
  restart(): StoreUnderTest;
  close(): Promise<void>;
}

function make(fake: FakeDebusine, http: HttpTransport, dir: string, cap?: number): StoreUnderTest {
  const cache = new LogCache(dir, cap);
  const events: LogState[] = [];
  const store = new LogStore({ cache, emit: (state) => events.push(state) });
  const source = { apiUrl: fake.apiUrl, client: () => http };
  return {
    store,
    cache,
    dir,
    events,
    open: (artifactId, path) => store.open(source, artifactId, path),
    async wait(handle, until) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const state = store.state(handle);
        if (until(state)) return state;
        expect(Date.now(), `waiting on ${JSON.stringify(state)}`).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    onDisk: () => {
      try {
        return readdirSync(dir).sort();
      } catch {
        return [];
      }
    },
    restart: () => make(fake, http, dir, cap),
    close: () => store.closeAll(),
  };
}

export function logStoreOn(
  fake: FakeDebusine,
  options: { cap?: number } = {},
): StoreUnderTest & { cleanup(): Promise<void> } {
  const root = mkdtempSync(join(tmpdir(), 'ddt-logs-'));
  const http = fake.transport();
  const made = make(fake, http, join(root, 'log-cache'), options.cap);
  return {
    ...made,
    async cleanup() {
      await made.close();
      await http.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export const isReady = (state: LogState): boolean => state.state !== 'loading';
