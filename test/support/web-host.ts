import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { UNHANDLED_REJECTION } from '../../src/main/unhandled';
import { BRIDGE_PROTOCOL, keyProtocol } from '../../src/shared/web-host-key';

export interface RunningWebHost {
  /** The printed address: `http://127.0.0.1:PORT/#key=…` (the key in the fragment). */
  url: string;
  process: ChildProcess;
  /** Throws, with the host's output, when the host is no longer running. */
  assertRunning(): void;
  stop(): Promise<void>;
}

/** The session key carried in the fragment of a printed address. */
export function sessionKeyOf(url: string): string {
  const key = new URLSearchParams(new URL(url).hash.slice(1)).get('key');
  if (!key) throw new Error(`no session key in ${url}`);
  return key;
}

/**
 * Opens the host's bridge as a program outside the browser would: its own Origin header
 * (the host's), the key offered as a subprotocol as the page offers it.
 */
export function openBridgeSocket(url: string): WebSocket {
  const address = new URL(url);
  return new WebSocket(
    `ws://${address.host}/bridge`,
    [BRIDGE_PROTOCOL, keyProtocol(sessionKeyOf(url))],
    { origin: address.origin },
  );
}

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
  // A host that dies under a test shows up as "connection refused" in the browser; say
  // here why it died, since nothing else prints its output.
  child.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(
      `[web host] exited unexpectedly (${signal ?? `code ${String(code)}`}); its output:\n${output}`,
    );
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the web host did not start within 20 s:\n${output}`));
    }, 20_000);
    const onData = (): void => {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the web host exited with ${String(code)}:\n${output}`));
    });
  });
  return {
    url,
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
