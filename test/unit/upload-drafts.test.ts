/**
 * Drafts as the Upload screen makes and changes them: a kind chosen by hand takes the
 * files no kind took (they are not the user's exclusions), a draft with no file is never
 * ready, and a .changes' draft lists what dput makes of it and the workflow its dput-ng
 * profile names, or why dput would refuse it, before anything is sent.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DputPlanner } from '../../src/main/dput/plan';
import { DraftStore } from '../../src/main/service/drafts';
import { StaticSessionProvider } from '../../src/main/service/session';
import { StagedFiles } from '../../src/main/service/staged-files';
import { DebusineError } from '../../src/shared/errors';
import { debianFixtures, missingDebianTools } from '../support/debian-fixtures';

const skip = missingDebianTools();
if (!skip) debianFixtures();

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

async function stage(paths: string[]): Promise<{ staged: StagedFiles; ids: string[] }> {
  const staged = new StagedFiles();
  const ids = [];
  for (const path of paths) ids.push((await staged.add(path)).id);
  return { staged, ids };
}

describe('drafts', () => {
  it('gives a kind chosen by hand the files no kind took, and is not ready without files', async () => {
    const dir = tmp('ddt-draft-');
    const paths = ['a.log', 'b.log'].map((name) => {
      writeFileSync(join(dir, name), `${name}\n`);
      return join(dir, name);
    });
    const { staged, ids } = await stage(paths);
    const drafts = new DraftStore(tmp('ddt-data-'), staged);
    const first = await drafts.create(ids, false);
    expect(first.kind).toBeNull();
    expect(first.ready).toBe(false);
    const chosen = await drafts.update(first.draftId, { kind: 'workRequestDebugLogs' });
    expect(chosen.files.map((f) => f.pathInArtifact).sort()).toEqual(['a.log', 'b.log']);
    expect(chosen.ready).toBe(true);
    // The user's own exclusions still hold across a change of kind.
    const fewer = await drafts.update(first.draftId, { excludeFiles: [ids[0] ?? ''] });
    expect(fewer.files.map((f) => f.pathInArtifact)).toEqual(['b.log']);
    const again = await drafts.update(first.draftId, { kind: 'workRequestDebugLogs' });
    expect(again.files.map((f) => f.pathInArtifact)).toEqual(['b.log']);
    const none = await drafts.update(first.draftId, { excludeFiles: ids });
    expect(none.ready).toBe(false);
  });

  describe.skipIf(skip)('of a .changes', () => {
    const fx = debianFixtures();
    const all = [fx.changes, fx.dsc, fx.sourceTarball, fx.buildinfo, ...fx.debs];

    /** Template lookups the planners of this file asked the server for. */
    let lookups = 0;

    function planner(profile: Record<string, unknown> | null, templateExists: boolean) {
      const dputDir = tmp('ddt-dput-');
      mkdirSync(join(dputDir, 'profiles'));
      if (profile) {
        writeFileSync(join(dputDir, 'profiles', 'sandbox.json'), JSON.stringify(profile));
      }
      const session = new StaticSessionProvider({
        apiUrl: 'http://127.0.0.1:18099/api',
        token: 't',
        scope: 'debusine',
      });
      const client = session.client();
      // The template lookup is the only request a draft makes: answered here, not sent.
      Object.defineProperty(client, 'workflowTemplateGet', {
        value: (workspace: string, name: string) =>
          ++lookups > 0 && templateExists
            ? Promise.resolve({ name, workspace })
            : Promise.reject(new DebusineError('not-found', 'No WorkflowTemplate matches')),
      });
      return new DputPlanner({ session, dataDir: tmp('ddt-data-'), dirs: [dputDir] });
    }

    const PROFILE = {
      method: 'debusine',
      fqdn: '127.0.0.1:18099',
      debusine_scope: 'debusine',
      debusine_workspace: 'developers',
      debusine_workflows_by_distribution: {
        sid: 'upload-to-unstable',
        '*': 'upload-to-{distribution}',
      },
      debusine_workflow_data: { source_artifact: '@UPLOAD@' },
    };

    it('lists the upload, its source package and a binary package per .deb, and the workflow', async () => {
      const { staged, ids } = await stage(all);
      const drafts = new DraftStore(tmp('ddt-data-'), staged, planner(PROFILE, true));
      const draft = await drafts.create(ids, false);
      expect(draft.ready).toBe(true);
      expect(draft.parts).toEqual([
        { category: 'debian:upload', label: basename(fx.changes) },
        { category: 'debian:source-package', label: basename(fx.dsc) },
        ...fx.debs
          .map((d) => ({ category: 'debian:binary-package', label: basename(d) }))
          .sort((a, b) => (a.label < b.label ? -1 : 1)),
      ]);
      expect(draft.workflow).toMatchObject({
        profile: 'sandbox',
        distribution: 'unstable',
        template: 'upload-to-unstable',
        workspace: 'developers',
        data: { source_artifact: '@UPLOAD@' },
        problem: null,
      });
    });

    it('keeps its proposal while files are left out and taken back: one template lookup', async () => {
      const { staged, ids } = await stage(all);
      const drafts = new DraftStore(tmp('ddt-data-'), staged, planner(PROFILE, true));
      const before = lookups;
      const draft = await drafts.create(ids, false);
      const debId = ids[all.indexOf(fx.debs[0] ?? '')] ?? '';
      await drafts.update(draft.draftId, { excludeFiles: [debId] });
      const again = await drafts.update(draft.draftId, { excludeFiles: [] });
      expect(again.workflow).toMatchObject({ template: 'upload-to-unstable', problem: null });
      expect(lookups - before).toBe(1);
    });

    it('says before the upload that the server lacks the template, naming it and the Distribution', async () => {
      const { staged, ids } = await stage(all);
      const drafts = new DraftStore(tmp('ddt-data-'), staged, planner(PROFILE, false));
      const draft = await drafts.create(ids, false);
      expect(draft.workflow?.problem).toContain('upload-to-unstable');
      expect(draft.workflow?.problem).toContain('"unstable"');
    });

    it('leaves out a binary package whose .deb the user left out, and says so', async () => {
      const { staged, ids } = await stage(all);
      const drafts = new DraftStore(tmp('ddt-data-'), staged, planner(null, true));
      const draft = await drafts.create(ids, false);
      expect(draft.workflow).toBeNull();
      const debId = ids[all.indexOf(fx.debs[0] ?? '')] ?? '';
      const fewer = await drafts.update(draft.draftId, { excludeFiles: [debId] });
      expect(fewer.parts.map((p) => p.label)).not.toContain(basename(fx.debs[0] ?? ''));
      expect(fewer.parts).toHaveLength(3);
    });

    it('with allow_remote, makes the source package with the tarball the server has as a remote file', async () => {
      // A folder without the tarball: the draft finds nothing beside the .changes.
      const bare = tmp('ddt-bare-');
      const { staged, ids } = await stage(
        all
          .filter((p) => p !== fx.sourceTarball)
          .map((p) => {
            copyFileSync(p, join(bare, basename(p)));
            return join(bare, basename(p));
          }),
      );
      const drafts = new DraftStore(tmp('ddt-data-'), staged, planner(null, true));
      const draft = await drafts.create(ids, true);
      expect(draft.problems).toEqual([]);
      expect(draft.ready).toBe(true);
      expect(draft.parts.map((p) => p.category)).toEqual([
        'debian:upload',
        'debian:source-package',
        'debian:binary-package',
        'debian:binary-package',
      ]);
      expect(draft.notes).toEqual([]);
    });
  });
});
