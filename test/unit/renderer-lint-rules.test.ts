/**
 * The renderer's layer rules bite: ESLint, with the repository's own configuration, is
 * given small modules at paths in each layer (they are not written anywhere) and must
 * refuse the imports the layers forbid, and accept those they allow. Type-aware rules are
 * switched off here, for speed: the layer rules do not need types.
 */
import { describe, expect, it } from 'vitest';
import { lintProbe, use } from '../support/lint-probe';

const R = 'src/renderer/src';

/** The messages of the layer rules, and of one named rule, for `code` at `path`. */
const { imports: problems, rule: ruleProblems } = lintProbe(`${R}/probe.ts`);

const SLOW = { timeout: 30_000 };

describe("the renderer's import boundaries", SLOW, () => {
  it('refuses a screen importing another screen, and accepts its own folder', async () => {
    const path = `${R}/screens/artifacts/probe.tsx`;
    expect(await problems(path, use('@renderer/screens/upload/draft-files'))).toEqual([
      expect.stringContaining('A screen imports no other screen'),
    ]);
    expect(await problems(path, use('@renderer/screens/artifacts/file-table'))).toEqual([]);
    expect(await problems(path, use('@renderer/kit/artifact-id'))).toEqual([]);
  });

  it('refuses a screen importing the shell', async () => {
    expect(await problems(`${R}/screens/settings/probe.tsx`, use('@renderer/shell/areas'))).toEqual(
      [expect.stringContaining('nor the shell')],
    );
  });

  it.each(['components', 'kit', 'queries', 'state'])(
    'refuses %s/ importing a screen or the shell',
    async (folder) => {
      const path = `${R}/${folder}/probe.ts`;
      expect(await problems(path, use('@renderer/screens/upload'))).toEqual([
        expect.stringContaining('nothing below may import the shell or a screen'),
      ]);
      expect(await problems(path, use('@renderer/shell/areas'))).toEqual([
        expect.stringContaining('nothing below may import the shell or a screen'),
      ]);
    },
  );

  it('keeps components, state, queries and bridge to their layers', async () => {
    expect(await problems(`${R}/components/probe.ts`, use('@renderer/queries/hooks'))).toEqual([
      expect.stringContaining('components/ holds small generic widgets'),
    ]);
    expect(await problems(`${R}/state/probe.ts`, use('@renderer/queries/hooks'))).toEqual([
      expect.stringContaining('state/ holds UI state only'),
    ]);
    expect(await problems(`${R}/queries/probe.ts`, use('@renderer/state/ui-store'))).toEqual([
      expect.stringContaining('queries/ reads and changes data through the bridge'),
    ]);
    expect(await problems(`${R}/bridge/probe.ts`, use('@renderer/state/ui-store'))).toEqual([
      expect.stringContaining('bridge/ is the typed client'),
    ]);
    expect(await problems(`${R}/kit/probe.ts`, use('@renderer/queries/hooks'))).toEqual([]);
  });

  it('refuses ../ imports in the renderer', async () => {
    expect(await problems(`${R}/kit/errors/probe.ts`, use('../text'))).toEqual([
      expect.stringContaining('imports through @renderer/'),
    ]);
    expect(await problems(`${R}/kit/errors/probe.ts`, use('./problem'))).toEqual([]);
  });

  it("keeps react-query's hooks in queries/", async () => {
    const code = use('@tanstack/react-query', 'useQuery');
    expect(await problems(`${R}/screens/upload/probe.tsx`, code)).toEqual([
      expect.stringContaining('Data from main goes through queries/'),
    ]);
    expect(await problems(`${R}/queries/probe.ts`, code)).toEqual([]);
  });
});

describe('the renderer has no import cycles', SLOW, () => {
  it('refuses an import that closes a cycle through the real modules', async () => {
    // app.tsx reaches kit/artifact-id.ts (through the shell's command palette): importing
    // app.tsx from there would close a cycle.
    const path = `${R}/kit/artifact-id.ts`;
    expect(await problems(path, use('@renderer/app', 'App'))).toEqual([
      expect.stringMatching(/closes a cycle of modules: .*kit\/artifact-id\.ts → .*app\.tsx → /),
    ]);
  });

  it('does not count type-only imports, which are erased', async () => {
    const code = "import type { App } from '@renderer/app';\nexport type Y = typeof App;\n";
    expect(await problems(`${R}/kit/artifact-id.ts`, code)).toEqual([]);
  });
});

describe('the renderer does not ask which host it runs in', SLOW, () => {
  const hostProblems = (path: string, code: string): Promise<string[]> =>
    ruleProblems('no-restricted-properties', path, code);
  const ASKS = [
    "export const web = (b: { transport: string }) => b.transport === 'web';\n",
    'export const web = ({ transport }: { transport: string }) => transport;\n',
    'export const electron = window.debusine !== undefined;\n',
  ];

  it.each(['screens/artifacts/probe.tsx', 'kit/probe.ts', 'shell/probe.tsx', 'queries/probe.ts'])(
    'refuses it in %s',
    async (where) => {
      const [transport, destructured, preload] = ASKS;
      expect(await hostProblems(`${R}/${where}`, transport ?? '')).toEqual([
        expect.stringContaining('does not ask which host it runs in'),
      ]);
      expect(await hostProblems(`${R}/${where}`, destructured ?? '')).toEqual([
        expect.stringContaining('does not ask which host it runs in'),
      ]);
      expect(await hostProblems(`${R}/${where}`, preload ?? '')).toEqual([
        expect.stringContaining('Only bridge/ reaches window.debusine'),
      ]);
    },
  );

  it('leaves it to bridge/, which builds the client for the host it finds', async () => {
    for (const code of ASKS) expect(await hostProblems(`${R}/bridge/probe.ts`, code)).toEqual([]);
  });
});

describe("main's events enter through queries/", SLOW, () => {
  const listening = [
    "import { useBridge } from '@renderer/bridge';",
    'export function useProbe(): void {',
    '  const bridge = useBridge();',
    "  bridge.on('upload.finished', () => undefined);",
    '}',
    '',
  ].join('\n');
  const listenerProblems = (path: string): Promise<string[]> =>
    ruleProblems('no-restricted-syntax', path, listening);

  it.each(['screens/upload/probe.tsx', 'shell/probe.ts', 'kit/probe.ts'])(
    'refuses a listener in %s',
    async (path) => {
      expect(await listenerProblems(`${R}/${path}`)).toEqual([
        expect.stringContaining("Main's events are listened to in queries/ only"),
      ]);
    },
  );

  it('accepts one in queries/', async () => {
    expect(await listenerProblems(`${R}/queries/probe.ts`)).toEqual([]);
  });
});
