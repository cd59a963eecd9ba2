/**
 * The publications to the user's suites: told once, when the suite's update succeeds in the
 * tree of the workflow that published, on the server that started it; forgotten when that
 * workflow ends without it; kept across restarts; and a hostile or broken file reads as none.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Publications,
  PUBLICATIONS_KEPT,
  type Publication,
} from '../../src/main/archives/publications';

const SERVER = 'http://127.0.0.1:18016/api|debusine';
const OTHER = 'https://debusine.debian.net/api|debian';

function publication(rootId: number, server = SERVER): Publication {
  return {
    server,
    rootId,
    workspace: 'developers-alice-ppa',
    suite: 'sid',
    source: 'hello',
    version: '2.10-3',
    startedAt: '2026-11-29T07:00:00Z',
  };
}

const step = (id: number, root: number, task: string) => ({
  id,
  task_name: task,
  workflow_root: root,
});

describe('publications', () => {
  it('is told when its update_suite step succeeds, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-pub-'));
    const pubs = new Publications(dir);
    await pubs.record(publication(100));
    // Steps before it: the package copied into the suite, a QA step, the key generated.
    expect(await pubs.completed(SERVER, step(101, 100, 'copycollectionitems'), 'success')).toBe(
      undefined,
    );
    expect(await pubs.completed(SERVER, step(102, 100, 'lintian'), 'failure')).toBe(undefined);
    // The suite's update failed: not published, still waited for (a retry may publish).
    expect(await pubs.completed(SERVER, step(103, 100, 'update_suite'), 'failure')).toBe(undefined);
    expect(await pubs.list(SERVER)).toHaveLength(1);
    const told = await pubs.completed(SERVER, step(104, 100, 'update_suite'), 'success');
    expect(told).toMatchObject({ source: 'hello', version: '2.10-3', suite: 'sid', rootId: 100 });
    expect(await pubs.completed(SERVER, step(104, 100, 'update_suite'), 'success')).toBe(undefined);
    expect(await pubs.list(SERVER)).toEqual([]);
  });

  it('takes nothing from another server, where the same numbers are other work requests', async () => {
    const pubs = new Publications(mkdtempSync(join(tmpdir(), 'ddt-pub-')));
    await pubs.record(publication(100));
    expect(await pubs.completed(OTHER, step(104, 100, 'update_suite'), 'success')).toBe(undefined);
    // Nor a workflow of another root on its own server.
    expect(await pubs.completed(SERVER, step(104, 99, 'update_suite'), 'success')).toBe(undefined);
    expect(await pubs.list(SERVER)).toHaveLength(1);
  });

  it('forgets one whose workflow ended without publishing', async () => {
    const pubs = new Publications(mkdtempSync(join(tmpdir(), 'ddt-pub-')));
    await pubs.record(publication(100));
    expect(
      await pubs.completed(
        SERVER,
        { id: 100, task_name: 'debian_pipeline', workflow_root: null },
        'failure',
      ),
    ).toBe(undefined);
    expect(await pubs.list(SERVER)).toEqual([]);
  });

  it('is kept across restarts, bounded, and reads a broken or hostile file as none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-pub-'));
    const first = new Publications(dir);
    await first.record(publication(7));
    const again = new Publications(dir);
    expect((await again.completed(SERVER, step(9, 7, 'update_suite'), 'success'))?.rootId).toBe(7);

    for (let i = 1; i <= PUBLICATIONS_KEPT + 5; i++) await again.record(publication(1000 + i));
    const kept = await new Publications(dir).list(SERVER);
    expect(kept).toHaveLength(PUBLICATIONS_KEPT);
    expect(kept[0]?.rootId).toBe(1006);

    const file = join(dir, 'publications.json');
    writeFileSync(
      file,
      JSON.stringify({
        publications: [
          { ...publication(5), rootId: -1 },
          { ...publication(6), extra: 'field' },
          'text',
          null,
          publication(8),
        ],
      }),
    );
    expect((await new Publications(dir).list(SERVER)).map((p) => p.rootId)).toEqual([8]);
    writeFileSync(file, '{ not json');
    expect(await new Publications(dir).list(SERVER)).toEqual([]);
    // A record that is not a publication is refused, and the file is left as it was.
    await expect(new Publications(dir).record({ ...publication(3), rootId: 0 })).rejects.toThrow();
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });
});
