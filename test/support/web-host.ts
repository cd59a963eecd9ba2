import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { UNHANDLED_REJECTION } from '../../src/main/unhandled';
import {
  BRIDGE_PROTOCOL,
  KEY_HEADER,
  SESSION_PATH,
  keyProtocol,
} from '../../src/shared/web-host-key';
import { httpRequest } from './loopback-http';

export interface RunningWebHost {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /**
   * An address the host printed and nobody was given yet: `http://127.0.0.1:PORT/#key=…`.
   * Each opens one tab (or one program's session), and the host prints the next once it is
   * used; so this waits for that, and fails when the address handed out before was never
   * used.
   */
  nextUrl(): Promise<string>;
  process: ChildProcess;
  /** Throws, with the host's output, when the host is no longer running. */
  assertRunning(): void;
  stop(): Promise<void>;
}

/** The launch key carried in the fragment of a printed address. */
export function launchKeyOf(url: string): string {
  const key = new URLSearchParams(new URL(url).hash.slice(1)).get('key');
  if (!key) throw new Error(`no launch key in ${url}`);
  return key;
}

/**
 * Trades a printed address's launch key for a session key, as the page does: POST /session
 * with the host's own Origin and the key in its header.
 */
export async function exchangeKey(url: string): Promise<string> {
  const { origin } = new URL(url);
  const answer = await httpRequest(`${origin}${SESSION_PATH}`, {
    method: 'POST',
    headers: { origin, [KEY_HEADER]: launchKeyOf(url) },
  });
  if (answer.status !== 200)
    throw new Error(`the host refused the launch key (${String(answer.status)})`);
  return (JSON.parse(answer.body) as { key: string }).key;
}

/**
 * Opens the host's bridge as a program outside the browser would: it takes the next
 * printed address, trades its key for a session key, and offers that as a subprotocol
 * with its own Origin header (the host's), as the page does.
 */
export async function openBridgeSocket(host: RunningWebHost): Promise<WebSocket> {
  const key = await exchangeKey(await host.nextUrl());
  return new WebSocket(
    `ws://${new URL(host.origin).host}/bridge`,
    [BRIDGE_PROTOCOL, keyProtocol(key)],
    { origin: host.origin },
  );
}

/** A printed address: the first, and each one printed after one was used. */
const ADDRESS = /http:\/\/127\.0\.0\.1:\d+\/#key=[\w-]+/g;

const OUTPUT_LIMIT = 64 * 1024;

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Starts the built web host (`out/main/web.js`) on a free loopback port, with a data
 * directory of its own unless `env` names one (never the user's real one).
 */
export async function startWebHost(env: Record<string, string> = {}): Promise<RunningWebHost> {
  const ownDataDir = env.DEBUSINE_DESKTOP_DATA_DIR
    ? undefined
    : mkdtempSync(join(tmpdir(), 'debusine-desktop-host-'));
  const child = spawn(process.execPath, [resolve(ROOT, 'out/main/web.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DEBUSINE_DESKTOP_PORT: '0',
      ...(ownDataDir ? { DEBUSINE_DESKTOP_DATA_DIR: ownDataDir } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stopping = false;
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-OUTPUT_LIMIT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  // The addresses come on stdout, each on a line of its own.
  const printed: string[] = [];
  let handedOut = 0;
  let partLine = '';
  const onPrint = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partLine + chunk.toString()).split('\n');
    partLine = lines.pop() ?? '';
    for (const line of lines) printed.push(...(line.match(ADDRESS) ?? []));
    for (const check of [...onPrint]) check();
  });
  // A host that dies under a test shows up as "connection refused" in the browser; say
  // here why it died, since nothing else prints its output.
  child.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(
      `[web host] exited unexpectedly (${signal ?? `code ${String(code)}`}); its output:\n${output}`,
    );
  });
  /** Resolves once `ready()` holds after a print, failing after 20 s or when the host exits. */
  const untilPrinted = (ready: () => boolean, failure: string): Promise<void> =>
    new Promise<void>((resolveWait, reject) => {
      const stop = (): void => {
        clearTimeout(timer);
        onPrint.delete(check);
        child.off('exit', onExit);
      };
      const check = (): void => {
        if (!ready()) return;
        stop();
        resolveWait();
      };
      const onExit = (code: number | null): void => {
        stop();
        reject(new Error(`the web host exited with ${String(code)}:\n${output}`));
      };
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`${failure} within 20 s:\n${output}`));
      }, 20_000);
      onPrint.add(check);
      child.once('exit', onExit);
      check();
    });
  await untilPrinted(() => printed.length > 0, 'the web host did not start');
  return {
    origin: new URL(printed[0] ?? '').origin,
    nextUrl: async () => {
      const mine = handedOut++;
      const before = printed[mine - 1] ?? '';
      await untilPrinted(
        () => printed[mine] !== undefined,
        `the web host printed no new address (was ${before} used?)`,
      );
      return printed[mine] ?? '';
    },
    process: child,
    assertRunning: () => {
      if (child.exitCode === null && child.signalCode === null) return;
      throw new Error(
        `the web host is gone (${child.signalCode ?? `exit code ${String(child.exitCode)}`}); its output:\n${output}`,
      );
    },
    stop: async () => {
      stopping = true;
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
      // The host logs a rejection nobody handled instead of dying of it: still a bug.
      if (output.includes(UNHANDLED_REJECTION)) {
        throw new Error(`the web host had an unhandled rejection; its output:\n${output}`);
      }
    },
  };
}
