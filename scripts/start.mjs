#!/usr/bin/env node
// `npm start`: builds the app, then runs it in Electron when Electron's binary is installed;
// otherwise serves the same app through the web host on loopback and opens it in a window
// of its own (Chromium's app mode, or the default browser), saying so in one line
// (src/main/web/app-window.ts). `npm run serve` (--web) only serves: no window.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const web = process.argv.includes('--web');

const build = spawnSync(resolve(root, 'node_modules/.bin/electron-vite'), ['build'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);

function electronBinary() {
  try {
    const dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

const binary = web ? undefined : electronBinary();
const child = binary
  ? spawn(binary, [root], { cwd: root, stdio: 'inherit' })
  : spawn(process.execPath, [resolve(root, 'out/main/web.js'), ...(web ? [] : ['--window'])], {
      cwd: root,
      stdio: 'inherit',
    });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
