/**
 * Main's stream rule bites: ESLint, with the repository's own configuration, refuses a
 * request sent straight through the undici dispatcher outside the places that own the
 * answer's body, and accepts it in them. Type-aware rules are off here, for speed.
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let eslint: ESLint;

beforeAll(async () => {
  eslint = new ESLint({
    cwd: root,
    overrideConfig: [{ files: ['**/*.{ts,tsx}'], ...tseslint.configs.disableTypeChecked }],
  });
  await eslint.lintText('', { filePath: resolve(root, 'src/main/probe.ts') });
}, 120_000);

const REQUEST = `export async function get(http: { dispatcher: { request(o: object): Promise<unknown> } }) {
  return http.dispatcher.request({ path: '/' });
}
`;

async function restricted(path: string): Promise<string[]> {
  const [result] = await eslint.lintText(REQUEST, { filePath: resolve(root, path) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

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
      'src/main/artifacts/fetch-body.ts',
      'src/main/artifacts/upload-file.ts',
    ]) {
      expect(await restricted(path)).toEqual([]);
    }
  });
});
