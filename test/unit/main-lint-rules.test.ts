/**
 * Main's lint rules bite: ESLint, with the repository's own configuration, refuses a
 * request sent straight through the undici dispatcher outside the places that own the
 * answer's body, a domain folder importing a layer above it, a sub-folder of artifacts/
 * importing one above it or the folder's front, raw IPC outside its wrappers, and an
 * import that closes a cycle; and accepts what is allowed. Type-aware
 * rules are off here, for speed.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintProbe, use } from '../support/lint-probe';

const { imports: importProblems, rule: ruleProblems } = lintProbe('src/main/probe.ts');

const REQUEST = `export async function get(http: { dispatcher: { request(o: object): Promise<unknown> } }) {
  return http.dispatcher.request({ path: '/' });
}
`;

const restricted = (path: string): Promise<string[]> =>
  ruleProblems('no-restricted-syntax', path, REQUEST);

describe("main's requests own their bodies", { timeout: 30_000 }, () => {
  it('refuses a request through the dispatcher in any other module', async () => {
    for (const path of ['src/main/api/users.ts', 'src/main/logs/probe.ts', 'src/main/probe.ts']) {
      expect(await restricted(path)).toEqual([
        expect.stringContaining('HttpTransport.send or fetchBody'),
      ]);
    }
  });

  it('accepts it where the body is owned', async () => {
    for (const path of [
      'src/main/api/http.ts',
      'src/main/artifacts/transfer/fetch-body.ts',
      'src/main/artifacts/transfer/upload-file.ts',
    ]) {
      expect(await restricted(path)).toEqual([]);
    }
  });
});

describe('spreads of unbounded arrays', { timeout: 30_000 }, () => {
  const SPREADS = `export function f(out: number[], list: number[], maps: object[]): number {
  out.push(...list);
  Object.assign({}, ...maps);
  return Math.max(...list);
}
`;
  it('refuses spreading an array into push, Object.assign or Math in the code that ships', async () => {
    for (const path of ['src/main/probe.ts', 'src/shared/probe.ts', 'src/renderer/src/probe.ts']) {
      const problems = await ruleProblems('no-restricted-syntax', path, SPREADS);
      expect(problems, path).toHaveLength(3);
      expect(problems[0]).toContain('unbounded');
    }
  });

  it('accepts forwarding rest arguments and spreading into an array literal', async () => {
    const fine = `export const g = (f: (...a: number[]) => number, ...args: number[]) => [...args, f(...args)];\n`;
    expect(await ruleProblems('no-restricted-syntax', 'src/main/probe.ts', fine)).toEqual([]);
  });
});

/**
 * Lints a module importing each specifier at its path: refused with a message containing
 * `refusal`, or, when it is null, accepted.
 */
async function expectImports(
  cases: readonly (readonly [path: string, specifier: string])[],
  refusal: string | null,
): Promise<void> {
  for (const [path, specifier] of cases) {
    expect(await importProblems(path, use(specifier)), `${path} → ${specifier}`).toEqual(
      refusal === null ? [] : [expect.stringContaining(refusal)],
    );
  }
}

describe("main's layers", { timeout: 30_000 }, () => {
  it('refuses a domain folder importing the service, the bridge, a host or the composition root', async () => {
    await expectImports(
      [
        ['src/main/logs/probe.ts', '../service/session'],
        ['src/main/watch/probe.ts', '../bridge/caller'],
        ['src/main/api/probe.ts', '../app/window'],
        ['src/main/artifacts/probe.ts', '../web/host'],
        ['src/main/notify/probe.ts', '../composition-root'],
        ['src/main/artifacts/deep/probe.ts', '../../service/drafts'],
      ],
      'of main (MAIN_FLOORS in eslint.config.js)',
    );
  });

  it('refuses an import across the floors: upwards, sideways, or by a detour', async () => {
    await expectImports(
      [
        ['src/main/service/probe.ts', '../app/window'],
        ['src/main/bridge/probe.ts', '../service/session'],
        ['src/main/api/probe.ts', '../watch/watch-list'],
        ['src/main/web/probe.ts', '../app/window'],
        ['src/main/app/probe.ts', '../web/host'],
        ['src/main/settings/probe.ts', '../artifacts'],
        ['src/main/notify/probe.ts', '../watch/completion-router'],
        ['src/main/watch/probe.ts', '../signing/signer'],
        ['src/main/results/probe.ts', '../notify/notifier'],
        ['src/main/api/probe.ts', '../settings/profiles'],
        ['src/main/service/probe.ts', '../../main/app/window'],
      ],
      'of main',
    );
    for (const [path, specifier] of [
      ['src/main/json-file.ts', './settings/profiles'],
      ['src/main/composition-root.ts', './web/host'],
      ['src/main/bounded.ts', './api/http'],
    ] as const) {
      expect(await ruleProblems('no-restricted-imports', path, use(specifier))).toEqual([
        expect.stringContaining('of main (MAIN_FLOORS in eslint.config.js)'),
      ]);
    }
  });

  it('refuses every import of a floor at or above its own, and accepts every one below', async () => {
    // The floors as the configuration has them: it is their one home.
    // Named through a variable: the configuration is plain JavaScript, with no types to
    // check it by, and its one export used here is checked just below.
    const config = '../../eslint.config.js';
    const { MAIN_FLOORS } = (await import(config)) as { MAIN_FLOORS: unknown };
    if (!Array.isArray(MAIN_FLOORS) || !MAIN_FLOORS.every((f) => Array.isArray(f))) {
      throw new Error('eslint.config.js exports no MAIN_FLOORS table');
    }
    const folders = new Set(
      readdirSync('src/main', { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name),
    );
    const probeOf = (place: string) =>
      folders.has(place) ? `src/main/${place}/probe.ts` : `src/main/${place}.ts`;
    const specifier = (from: string, to: string) =>
      `${folders.has(from) ? '../' : './'}${to}${folders.has(to) ? '/some-module' : ''}`;
    let refused = 0;
    let accepted = 0;
    for (const [i, floor] of MAIN_FLOORS.entries()) {
      for (const from of floor) {
        for (const [j, other] of MAIN_FLOORS.entries()) {
          for (const to of other) {
            if (to === from) continue;
            // The top modules are real files: an import back may close a cycle too, which
            // another rule says.
            const problems = await ruleProblems(
              'no-restricted-imports',
              probeOf(from),
              use(specifier(from, to)),
            );
            if (j >= i) {
              expect(problems, `${from} → ${to}`).toEqual([
                expect.stringContaining(`${from} stands on floor ${String(i)} of main`),
              ]);
              refused++;
            } else {
              expect(problems, `${from} → ${to}`).toEqual([]);
              accepted++;
            }
          }
        }
      }
    }
    const places = MAIN_FLOORS.flat().length;
    expect(refused + accepted).toBe(places * (places - 1));
    expect(refused).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
  });

  it('lets the service, the hosts and the domain folders import what is below them', async () => {
    expect(await importProblems('src/main/service/probe.ts', use('../logs/log-store'))).toEqual([]);
    expect(await importProblems('src/main/service/probe.ts', use('../bridge/caller'))).toEqual([]);
    expect(await importProblems('src/main/web/probe.ts', use('../composition-root'))).toEqual([]);
    expect(await importProblems('src/main/results/probe.ts', use('../logs/log-store'))).toEqual([]);
    expect(await importProblems('src/main/app/window.ts', use('../static-files'))).toEqual([]);
    expect(await importProblems('src/main/settings/probe.ts', use('../json-file'))).toEqual([]);
  });

  it('keeps electron out of everything but the Electron host and the preload', async () => {
    expect(await importProblems('src/main/watch/probe.ts', use('electron', 'app'))).toEqual([
      expect.stringContaining('Only src/main/app and src/preload may import electron'),
    ]);
  });

  it('refuses raw IPC outside its wrappers', async () => {
    expect(await importProblems('src/main/app/window.ts', use('electron', 'ipcMain'))).toEqual([
      expect.stringContaining('ipcMain is used through its wrapper only'),
    ]);
    expect(await importProblems('src/main/app/ipc.ts', use('electron', 'ipcMain'))).toEqual([]);
    expect(await importProblems('src/preload/api.ts', use('electron', 'ipcRenderer'))).toEqual([
      expect.stringContaining('ipcRenderer is used through its wrapper only'),
    ]);
    expect(await importProblems('src/preload/index.ts', use('electron', 'ipcRenderer'))).toEqual(
      [],
    );
  });

  it('refuses an import that closes a cycle of main modules', async () => {
    // completion-watcher.ts imports messages.ts: importing it back from there closes a cycle.
    expect(
      await importProblems(
        'src/main/watch/messages.ts',
        use('./completion-watcher', 'CompletionWatcher'),
      ),
    ).toEqual([
      expect.stringMatching(
        /closes a cycle of modules: .*watch\/messages\.ts → .*watch\/completion-watcher\.ts → /,
      ),
    ]);
    // Erased at build time, a type-only import makes no cycle.
    const typeOnly =
      "import type { CompletionWatcher } from './completion-watcher';\nexport type Y = CompletionWatcher;\n";
    expect(await importProblems('src/main/watch/messages.ts', typeOnly)).toEqual([]);
  });
});

describe("artifacts' layers: hashing ← formats ← local ← transfer", { timeout: 30_000 }, () => {
  it('refuses a sub-folder importing one after it', async () => {
    for (const [path, specifier, message] of [
      ['src/main/artifacts/hashing/probe.ts', '../formats/deb822', 'artifacts/hashing/'],
      ['src/main/artifacts/hashing/probe.ts', '../local/local-artifact', 'artifacts/hashing/'],
      ['src/main/artifacts/hashing/probe.ts', '../transfer/download', 'artifacts/hashing/'],
      ['src/main/artifacts/formats/probe.ts', '../local/debian-files', 'artifacts/formats/'],
      ['src/main/artifacts/formats/probe.ts', '../transfer/declared-files', 'artifacts/formats/'],
      [
        'src/main/artifacts/formats/probe.ts',
        '../../artifacts/local/kind-data',
        'artifacts/formats/',
      ],
      ['src/main/artifacts/local/probe.ts', '../transfer/upload-engine', 'artifacts/local/'],
      ['src/main/artifacts/local/probe.ts', '../transfer', 'artifacts/local/'],
    ] as const) {
      expect(await importProblems(path, use(specifier)), `${path} → ${specifier}`).toEqual([
        expect.stringContaining(message),
      ]);
    }
  });

  it("refuses a sub-folder importing the folder's front", async () => {
    await expectImports(
      [
        ['src/main/artifacts/formats/probe.ts', '..'],
        ['src/main/artifacts/local/probe.ts', '../index'],
        ['src/main/artifacts/transfer/probe.ts', '../../artifacts'],
        ['src/main/artifacts/hashing/probe.ts', '../../artifacts/index'],
      ],
      "artifacts/index.ts is the folder's front",
    );
  });

  it("keeps main's own layer rules in the sub-folders", async () => {
    expect(
      await importProblems('src/main/artifacts/transfer/probe.ts', use('../../service/uploads')),
    ).toEqual([expect.stringContaining('artifacts stands on floor 3 of main')]);
    expect(
      await importProblems('src/main/artifacts/local/probe.ts', use('electron', 'app')),
    ).toEqual([expect.stringContaining('Only src/main/app and src/preload may import electron')]);
  });

  it('lets each import the ones before it, its own folder and the rest of main', async () => {
    await expectImports(
      [
        ['src/main/artifacts/formats/probe.ts', '../hashing/checksums'],
        ['src/main/artifacts/local/probe.ts', '../formats/deb822'],
        ['src/main/artifacts/local/probe.ts', '../hashing/digest-cache'],
        ['src/main/artifacts/transfer/probe.ts', '../local/kind-rules'],
        ['src/main/artifacts/transfer/probe.ts', '../formats/tar-stream'],
        ['src/main/artifacts/transfer/probe.ts', './download-errors'],
        ['src/main/artifacts/transfer/probe.ts', '../../api/http'],
        ['src/main/artifacts/hashing/probe.ts', '../../bounded'],
        ['src/main/service/probe.ts', '../artifacts/transfer/download'],
        ['src/main/service/probe.ts', '../artifacts'],
      ],
      null,
    );
  });
});

describe('no enum anywhere', { timeout: 30_000 }, () => {
  // The enum rule of typescript-eslint is off for its cost: no code may declare one.
  it.each(['src/main/watch/probe.ts', 'src/renderer/src/queries/probe.ts', 'test/unit/probe.ts'])(
    'refuses one in %s',
    async (path) => {
      expect(
        await ruleProblems('no-restricted-syntax', path, 'export enum E {\n  A,\n}\n'),
      ).toEqual(['Use a union of string literals, not an enum.']);
    },
  );
});
