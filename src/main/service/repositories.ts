/**
 * Personal APT repositories: a workspace of the user's own, made from a
 * `create_child_workspace` template, whose `debian:suite` collections Debusine publishes and
 * signs. This module makes them and their suites as `debusine archive suite create` does,
 * lists and removes what a suite holds, grants viewer tokens for a private one, and says
 * what apt needs, with the archive's key read from the API (never the user's token sent to
 * the archive host, which is another origin) and its fingerprint computed here.
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import type { DebusineClient } from '../api/client';
import { errorCauseCode, NETWORK_REASONS } from '../api/http-errors';
import {
  aptSourcesText,
  authConfLine,
  debuginfodLine,
  defaultArchiveUrl,
  parseArchiveUrl,
  repositoryUri,
} from '../archives/apt-source';
import { KeyBlockError, readPublicKeyBlock } from '../archives/openpgp-key';
import { defaultDputDirs, DputProfiles } from '../dput/profiles';
import { hasRepositoryProfile, writeRepositoryProfile } from '../dput/repository-profile';
import type { RememberedRepository, RepositoriesStore } from '../archives/repositories-store';
import { serverKey } from '../signing/uploads-made';
import type {
  AptSetup,
  PublishTarget,
  RepositoryEntry,
  ServerSummary,
  RepositoryPackage,
  RepositorySuite,
  RepositoryTemplate,
  ViewerToken,
} from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import type { CollectionData, WorkRequestResponse } from '../../shared/models';
import type { SessionProvider } from './session';

type Handlers = Pick<
  ServiceHandlers,
  | 'repositories.list'
  | 'repositories.templates'
  | 'repositories.create'
  | 'repositories.remember'
  | 'repositories.forget'
  | 'repositories.suites'
  | 'repositories.addSuite'
  | 'repositories.packages'
  | 'repositories.removePackage'
  | 'repositories.aptSetup'
  | 'repositories.setArchiveUrl'
  | 'repositories.tokens'
  | 'repositories.grantToken'
  | 'repositories.revokeToken'
  | 'repositories.dputProfile'
  | 'repositories.targets'
  | 'repositories.copyPackage'
>;

export interface RepositoryDeps {
  session: SessionProvider;
  store: RepositoriesStore;
  /** Watches what the app starts, so that its end notifies (service/work-request-starts). */
  started(workflow: WorkRequestResponse): Promise<WorkRequestResponse>;
  /** Asks the archive host for a repository's root, as a stranger (probeArchive by default). */
  probeArchive?: (repositoryUri: string) => Promise<ArchiveProbe>;
  /** Where dput-ng reads its profiles, the user's directory last (DputPlanner.dirs). */
  dputDirs?: () => readonly string[];
  /** Told when the suites that uploads can be published to may have changed. */
  changed?: () => void;
  /** Records a workflow that publishes a package, told once its suite is updated. */
  published?: (p: {
    rootId: number;
    workspace: string;
    suite: string;
    source: string;
    version: string;
  }) => Promise<void>;
}

/** Repositories looked at for an upload's "Publish to": the most recent ones. */
const TARGET_REPOSITORIES = 20;

/**
 * The `publish-to-<suite>` templates of a workspace: what publishes to its suites, as
 * `debusine archive suite create` names them.
 */
async function publishTemplates(c: DebusineClient, workspace: string): Promise<PublishTarget[]> {
  const out: PublishTarget[] = [];
  for await (const t of c.workflowTemplateIter(workspace)) {
    if (t.task_name !== 'debian_pipeline' || !t.name.startsWith('publish-to-')) continue;
    const suite = t.name.slice('publish-to-'.length);
    if (suite !== '') out.push({ workspace, suite, template: t.name });
  }
  return out.sort((a, b) => a.suite.localeCompare(b.suite));
}

/**
 * The suites of the user's repositories on the active server that an upload can be
 * published to. A repository that cannot be read (expired, or not yet made) offers none.
 */
export async function publishTargets(
  deps: Pick<RepositoryDeps, 'session' | 'store'>,
): Promise<PublishTarget[]> {
  const active = deps.session.active();
  if (!active) return [];
  const c = deps.session.client();
  const remembered = await deps.store.list(serverKey(active.apiUrl, active.scope));
  const recent = remembered.filter((r) => r.workflowId === null).slice(-TARGET_REPOSITORIES);
  const found = await Promise.all(
    recent.reverse().map((r) => publishTemplates(c, r.workspace).catch(() => [])),
  );
  return found.flat();
}

const SUITE = 'debian:suite';
const ARCHIVE = 'debian:archive';
const SIGNING_KEY = 'debusine:signing-key';
/** Static parameters of a base template that name a collection the suite relates to. */
const RELATIONS_FROM_BASE = {
  qa_suite: 'suite-targeting',
  regression_tracking_qa_results: 'suite-default-qa-results',
} as const;

export function repositoryHandlers(deps: RepositoryDeps): Handlers {
  const client = (): DebusineClient => deps.session.client();
  const server = (): string => {
    const active = deps.session.active();
    if (!active) throw new DebusineError('auth', 'No server is set up');
    return serverKey(active.apiUrl, active.scope);
  };

  async function entryOf(c: DebusineClient, r: RememberedRepository): Promise<RepositoryEntry> {
    const entry: RepositoryEntry = {
      workspace: r.workspace,
      kind: r.kind,
      public: r.public,
      addedAt: r.addedAt,
      state: 'ready',
      workflowId: r.workflowId,
      message: null,
    };
    if (r.workflowId === null) {
      // Debusine removes an experiment 60 days after its last task: what the app remembers
      // may be gone, and it is said here rather than as a failure of each of its screens.
      const exists = await archiveOf(c, r.workspace).then(
        () => true,
        (error: unknown) => {
          if (error instanceof DebusineError && error.code === 'not-found') return false;
          throw error;
        },
      );
      if (exists) return entry;
      return {
        ...entry,
        state: 'gone',
        message:
          r.kind === 'experiment'
            ? `${r.workspace} is not on the server any more: an experiment is removed 60 days after its last task (or you may no longer see it)`
            : `${r.workspace} is not on the server any more, or you may no longer see it`,
      };
    }
    const wr = await c.workRequestGet(r.workflowId);
    if (wr.status === 'completed' && wr.result === 'success') {
      await deps.store.remember({ ...r, workflowId: null });
      return { ...entry, workflowId: null };
    }
    if (wr.status === 'completed' || wr.status === 'aborted') {
      return {
        ...entry,
        state: 'failed',
        message: `Workflow ${String(wr.id)} ended ${wr.status === 'aborted' ? 'aborted' : wr.result}: the repository was not made`,
      };
    }
    return { ...entry, state: 'creating' };
  }

  async function templatesIn(c: DebusineClient, workspace: string): Promise<RepositoryTemplate[]> {
    const out: RepositoryTemplate[] = [];
    for await (const t of c.workflowTemplateIter(workspace)) {
      if (t.task_name !== 'create_child_workspace') continue;
      const statics = t.static_parameters ?? {};
      const delay = statics.expiration_delay;
      // The server's own default is 60 days; null keeps the workspace.
      const days = delay === undefined ? 60 : typeof delay === 'number' ? delay : null;
      const prefix = typeof statics.prefix === 'string' ? statics.prefix : workspace;
      out.push({
        workspace,
        name: t.name,
        kind: days === null ? 'kept' : 'experiment',
        expirationDays: days,
        prefix,
      });
    }
    return out;
  }

  /** The archive of `workspace`, which makes it a repository; a clear error otherwise. */
  async function archiveOf(c: DebusineClient, workspace: string): Promise<CollectionData> {
    try {
      return await c.collectionGet(workspace, ARCHIVE, '_');
    } catch (error) {
      if (error instanceof DebusineError && error.code === 'not-found') {
        throw new DebusineError(
          'not-found',
          `${workspace} has no archive (_@debian:archive): it is not a repository, it expired, or you may not see it`,
          { operation: 'repositories' },
        );
      }
      throw error;
    }
  }

  function suiteOf(collection: CollectionData, templates: Set<string>): RepositorySuite {
    const strings = (value: unknown): string[] =>
      Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    const template = `publish-to-${collection.name}`;
    return {
      name: collection.name,
      components: strings(collection.data.components),
      architectures: strings(collection.data.architectures),
      publishTemplate: templates.has(template) ? template : null,
    };
  }

  /** The scope the archive serves the workspace under: its web link's first part. */
  function scopeOf(collection: CollectionData): string {
    const link = collection.links.webui_self;
    const href = typeof link === 'string' ? link : link?.href;
    const scope = href?.split('/').find((p) => p !== '');
    const active = deps.session.active();
    const name = scope ?? active?.scope;
    if (!name)
      throw new DebusineError('validation', 'The server did not say which scope the archive is in');
    return name;
  }

  async function archiveUrl(): Promise<{ url: string; isDefault: boolean }> {
    const saved = await deps.store.archiveUrl(server());
    if (saved !== null) return { url: saved, isDefault: false };
    const active = deps.session.active();
    if (!active) throw new DebusineError('auth', 'No server is set up');
    return { url: defaultArchiveUrl(active.apiUrl), isDefault: true };
  }

  /** The key the archive signs with, from the API, checked against what the archive names. */
  async function archiveKey(
    c: DebusineClient,
    workspace: string,
    archive: CollectionData,
    suite: CollectionData,
  ): Promise<{ state: AptSetup['keyState']; armored: string | null; fingerprints: string[] }> {
    const named = (value: unknown): string[] =>
      Array.isArray(value)
        ? value.filter((v): v is string => typeof v === 'string').map((v) => v.toUpperCase())
        : [];
    // A suite may sign with keys of its own; otherwise the archive's.
    const own = named(suite.data.signing_keys);
    const wanted = own.length > 0 ? own : named(archive.data.signing_keys);
    if (wanted.length === 0) return { state: 'not-yet', armored: null, fingerprints: [] };
    const blocks: string[] = [];
    const found: string[] = [];
    for (const asset of await c.assetList({ workspace })) {
      if (asset.category !== SIGNING_KEY) continue;
      const encoded = asset.data.public_key;
      if (typeof encoded !== 'string' || encoded.length > 512 * 1024) continue;
      let block;
      try {
        block = readPublicKeyBlock(Buffer.from(encoded, 'base64').toString('utf8'));
      } catch (error) {
        if (error instanceof KeyBlockError) continue;
        throw error;
      }
      if (!block.fingerprints.some((f) => wanted.includes(f))) continue;
      blocks.push(block.armored);
      for (const f of block.fingerprints) if (wanted.includes(f)) found.push(f);
    }
    if (!wanted.every((f) => found.includes(f))) {
      // The archive names a key the server does not hand over, or hands over another.
      return { state: 'mismatch', armored: null, fingerprints: found };
    }
    return { state: 'present', armored: blocks.join(''), fingerprints: [...new Set(found)] };
  }

  function dputDirs(): readonly string[] {
    return deps.dputDirs?.() ?? defaultDputDirs();
  }

  /** The active server's host and scope, and the user's dput-ng directory (read last). */
  function profilePlace(): { active: ServerSummary; host: string; scope: string; dir: string } {
    const active = deps.session.active();
    if (!active) throw new DebusineError('auth', 'No server is set up');
    const dir = dputDirs().at(-1);
    if (dir === undefined) throw new DebusineError('internal', 'dput-ng reads no directory');
    return { active, host: new URL(active.apiUrl).hostname, scope: active.scope ?? '', dir };
  }

  async function writeProfile(c: DebusineClient, workspace: string) {
    const { active, ...place } = profilePlace();
    const serverProfile = await new DputProfiles(dputDirs()).forServer(active.apiUrl, active.scope);
    const suites = (await publishTemplates(c, workspace)).map((t) => t.suite);
    return writeRepositoryProfile({
      ...place,
      server: serverProfile?.fields ?? null,
      workspace,
      suites,
    });
  }

  const tokenTarget = (suite: string | null): [string, string] =>
    suite === null ? [ARCHIVE, '_'] : [SUITE, suite];

  return {
    'repositories.list': async () => {
      const c = client();
      const remembered = await deps.store.list(server());
      const out = await Promise.all(remembered.map((r) => entryOf(c, r)));
      return out.reverse();
    },

    'repositories.templates': async ({ workspace }) => templatesIn(client(), workspace),

    'repositories.create': async ({ workspace, template, suffix, public: isPublic }) => {
      const c = client();
      const chosen = (await templatesIn(c, workspace)).find((t) => t.name === template);
      if (!chosen) {
        throw new DebusineError(
          'validation',
          `${template} is not a template that makes repositories in ${workspace}`,
          { operation: 'repositories.create' },
        );
      }
      const name = `${chosen.prefix}-${suffix}`;
      const workflow = await c.workflowCreate({
        template_name: template,
        workspace,
        task_data: { suffix, public: isPublic },
      });
      await deps.started(workflow);
      const remembered: RememberedRepository = {
        server: server(),
        workspace: name,
        kind: chosen.kind,
        public: isPublic,
        addedAt: new Date().toISOString(),
        workflowId: workflow.id,
      };
      await deps.store.remember(remembered);
      return entryOf(c, remembered);
    },

    'repositories.remember': async ({ workspace }) => {
      const c = client();
      await archiveOf(c, workspace);
      const remembered: RememberedRepository = {
        server: server(),
        workspace,
        kind: 'named',
        public: null,
        addedAt: new Date().toISOString(),
        workflowId: null,
      };
      await deps.store.remember(remembered);
      deps.changed?.();
      return entryOf(c, remembered);
    },

    'repositories.forget': async ({ workspace }) => {
      await deps.store.forget(server(), workspace);
      deps.changed?.();
      return undefined;
    },

    'repositories.suites': async ({ workspace }) => {
      const c = client();
      await archiveOf(c, workspace);
      const templates = new Set<string>();
      for await (const t of c.workflowTemplateIter(workspace)) templates.add(t.name);
      const suites: RepositorySuite[] = [];
      for await (const collection of c.collectionIter(workspace)) {
        if (collection.category === SUITE) suites.push(suiteOf(collection, templates));
      }
      return suites.sort((a, b) => a.name.localeCompare(b.name));
    },

    'repositories.addSuite': async ({
      workspace,
      suite,
      architectures,
      components,
      baseTemplate,
    }) => {
      const c = client();
      await archiveOf(c, workspace);
      // The base template is looked up before anything is made, as the CLI does: in the
      // workspace, then up its inheritance chain.
      let base = null;
      if (baseTemplate !== null) {
        const chain = [workspace];
        for (const parent of (await c.getWorkspaceInheritance(workspace)).chain) {
          if (parent.workspace) chain.push(parent.workspace);
        }
        for (const ws of chain) {
          base = await c.workflowTemplateGet(ws, baseTemplate).catch((error: unknown) => {
            if (error instanceof DebusineError && error.code === 'not-found') return null;
            throw error;
          });
          if (base) break;
        }
        if (!base) {
          throw new DebusineError(
            'not-found',
            `No template ${baseTemplate} in ${workspace} or the workspaces it inherits`,
            { operation: 'repositories.addSuite' },
          );
        }
        if (base.task_name !== 'debian_pipeline') {
          throw new DebusineError(
            'validation',
            `${baseTemplate} is a ${base.task_name} template, not debian_pipeline: it cannot publish`,
            { operation: 'repositories.addSuite' },
          );
        }
      }
      // The collections the base template's QA names, resolved before anything is made, so
      // that a name the server does not know leaves no half-made suite.
      const statics = { ...(base?.static_parameters ?? {}) } as Record<string, unknown>;
      const relations: {
        type: (typeof RELATIONS_FROM_BASE)[keyof typeof RELATIONS_FROM_BASE];
        name: string;
        category: string;
      }[] = [];
      for (const [parameter, type] of Object.entries(RELATIONS_FROM_BASE)) {
        const target = statics[parameter];
        if (typeof target !== 'string' && typeof target !== 'number') continue;
        const found = await c.lookupSingle({
          lookup: target,
          workspace,
          expect_type: 'collection',
          default_category: SUITE,
        });
        // The collection as the server names it (0.16 answers with its name and category).
        const info = (found as { collection_info?: { name?: unknown; category?: unknown } })
          .collection_info;
        if (typeof info?.name !== 'string' || typeof info.category !== 'string') {
          throw new DebusineError(
            'validation',
            `The server did not name the collection ${String(target)} (${parameter} of ${baseTemplate ?? ''})`,
            { operation: 'repositories.addSuite' },
          );
        }
        relations.push({ type, name: info.name, category: info.category });
      }
      const created = await c
        .collectionCreate(workspace, {
          name: suite,
          category: SUITE,
          data: { components, architectures },
        })
        .catch((error: unknown) => {
          if (!(error instanceof DebusineError)) throw error;
          throw new DebusineError(
            error.code,
            `The suite ${suite} was not made in ${workspace}: ${error.message}`,
            {
              ...error.details,
              operation: 'repositories.addSuite',
            },
          );
        });
      const templates = new Set<string>();
      for (const relation of relations) {
        await c.collectionRelationSet(workspace, `${suite}@${SUITE}`, relation.type, [
          { name: relation.name, category: relation.category },
        ]);
      }
      if (base) {
        Reflect.deleteProperty(statics, 'enable_upload');
        statics.suite = `${suite}@${SUITE}`;
        statics.architectures_allowlist = architectures.includes('all')
          ? architectures
          : ['all', ...architectures];
        const name = `publish-to-${suite}`;
        await c.workflowTemplateCreate(workspace, {
          name,
          task_name: 'debian_pipeline',
          static_parameters: statics,
          runtime_parameters: base.runtime_parameters ?? 'any',
          priority: base.priority,
        });
        templates.add(name);
        deps.changed?.();
        // A profile the app wrote for this repository publishes to the new suite too.
        const { host, dir } = profilePlace();
        if (await hasRepositoryProfile(dir, host, workspace)) await writeProfile(c, workspace);
      }
      return suiteOf(created, templates);
    },

    'repositories.targets': async () => publishTargets(deps),

    'repositories.copyPackage': async ({ from, to, source, version, move, unembargo }) => {
      const c = client();
      if (from.workspace === to.workspace && from.suite === to.suite) {
        throw new DebusineError('validation', `${source} ${version} is in ${to.suite} already`, {
          field: 'to',
        });
      }
      // The task data `debusine archive package copy --include-binaries` sends: the suite
      // it comes from named across workspaces by lookup, the binaries those of the source.
      let fromSuite = `${from.suite}@${SUITE}`;
      if (from.workspace !== to.workspace) fromSuite = `//workspace=${from.workspace}/${fromSuite}`;
      const sourceArtifact = `${fromSuite}/source-version:${source}_${version}`;
      const taskData: Record<string, unknown> = {
        source_artifact: sourceArtifact,
        target_suite: `${to.suite}@${SUITE}`,
        suite_variables: {},
        binary_artifacts: { collection: fromSuite, lookup__binaries: sourceArtifact },
      };
      if (move) taskData.move = true;
      if (unembargo) taskData.unembargo = true;
      const workflow = await c
        .workflowCreateByTask({
          task_name: 'package_publish',
          workspace: to.workspace,
          task_data: taskData,
        })
        .catch((error: unknown) => {
          if (!(error instanceof DebusineError)) throw error;
          throw new DebusineError(
            error.code,
            `${source} ${version} was not ${move ? 'moved' : 'copied'} to ${to.suite} in ${to.workspace}: ${error.message}`,
            { ...error.details, operation: 'repositories.copyPackage' },
          );
        });
      await deps.published?.({
        rootId: workflow.id,
        workspace: to.workspace,
        suite: to.suite,
        source,
        version,
      });
      return deps.started(workflow);
    },

    'repositories.dputProfile': async ({ workspace }) => {
      const c = client();
      const known = await deps.store.list(server());
      if (!known.some((r) => r.workspace === workspace)) {
        throw new DebusineError(
          'not-found',
          `${workspace} is not one of the repositories the app knows on this server`,
          { operation: 'repositories.dputProfile' },
        );
      }
      await archiveOf(c, workspace);
      const written = await writeProfile(c, workspace);
      const suites = written.fields.debusine_workflows_by_distribution;
      return {
        name: written.name,
        file: written.file,
        suites: Object.keys(suites ?? {}).filter((k) => k !== '*'),
      };
    },

    'repositories.packages': async ({ workspace, suite, search, limit }) => {
      const c = client();
      const out: RepositoryPackage[] = [];
      const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
      const items = c.collectionItemIter(workspace, SUITE, suite, {
        ...(search.trim() === '' ? {} : { nameStartsWith: search.trim() }),
      });
      for await (const item of items) {
        if (
          item.category !== 'debian:source-package' &&
          item.category !== 'debian:binary-package'
        ) {
          continue;
        }
        const d = item.data;
        out.push({
          name: item.name,
          kind: item.category === 'debian:source-package' ? 'source' : 'binary',
          package: text(d.package) ?? item.name.split('_')[0] ?? item.name,
          version: text(d.version) ?? '',
          architecture: text(d.architecture),
          component: text(d.component),
          section: text(d.section),
        });
        if (out.length >= limit) break;
      }
      return out;
    },

    'repositories.removePackage': async ({ workspace, suite, name }) => {
      await client().collectionItemDelete(workspace, SUITE, suite, name);
      return undefined;
    },

    'repositories.aptSetup': async ({ workspace, suite, withSources }) => {
      const c = client();
      const archive = await archiveOf(c, workspace);
      const collection = await c.collectionGet(workspace, SUITE, suite);
      const scope = scopeOf(archive);
      const { url, isDefault } = await archiveUrl();
      const key = await archiveKey(c, workspace, archive, collection);
      const suiteInfo = suiteOf(collection, new Set());
      const remembered = (await deps.store.list(server())).find((r) => r.workspace === workspace);
      const uri = repositoryUri(url, scope, workspace);
      // Asked every time, not only when the app does not know whether the repository is
      // public: apt will meet the same host, and a host that does not answer is worth saying
      // before the user edits their system.
      const probe = await (deps.probeArchive ?? probeArchive)(uri);
      const anyone = servedToAnyone(probe);
      const isPrivate =
        remembered?.public != null ? !remembered.public : anyone === null ? null : !anyone;
      // With no key yet, whether anything was published tells "not due yet" from "late".
      let suiteHasPackages = true;
      if (key.state === 'not-yet') {
        const items = c.collectionItemIter(workspace, SUITE, suite, {})[Symbol.asyncIterator]();
        suiteHasPackages = (await items.next()).done !== true;
        await items.return();
      }
      return {
        archiveUrl: url,
        archiveUrlIsDefault: isDefault,
        repositoryUri: uri,
        archiveProblem: 'problem' in probe ? probe.problem : null,
        keyState: key.state,
        suiteHasPackages,
        keyFingerprints: key.fingerprints,
        sources:
          key.armored === null
            ? null
            : aptSourcesText({
                archiveUrl: url,
                scope,
                workspace,
                suite,
                components: suiteInfo.components,
                architectures: suiteInfo.architectures,
                armoredKey: key.armored,
                withSources,
              }),
        fileName: `${workspace}-${suite}.sources`,
        debuginfod: debuginfodLine(url, scope, workspace),
        private: isPrivate,
      };
    },

    'repositories.setArchiveUrl': async ({ url }) => {
      await deps.store.setArchiveUrl(
        server(),
        url === null ? null : parseArchiveUrl(url).href.replace(/\/$/, ''),
      );
      return undefined;
    },

    'repositories.tokens': async ({ workspace, suite }) => {
      const out: ViewerToken[] = [];
      for await (const t of client().collectionTokenIter(workspace, ...tokenTarget(suite))) {
        out.push({
          tokenHash: t.token_hash,
          username: t.username ?? null,
          comment: t.comment ?? null,
          role: t.role,
        });
      }
      return out;
    },

    'repositories.grantToken': async ({ workspace, suite, username, comment }) => {
      const c = client();
      const archive = await archiveOf(c, workspace);
      const granted = await c
        .collectionTokenGrant(workspace, ...tokenTarget(suite), {
          role: 'viewer',
          username,
          comment,
        })
        .catch((error: unknown) => {
          if (!(error instanceof DebusineError)) throw error;
          const why =
            error.code === 'forbidden'
              ? 'only the repository’s owners may grant its tokens'
              : error.message;
          throw new DebusineError(
            error.code,
            `No viewer token was granted to ${username} on ${suite === null ? workspace : `${workspace}/${suite}`}: ${why}`,
            { ...error.details, operation: 'repositories.grantToken' },
          );
        });
      const key = granted.token_key;
      if (!key) {
        throw new DebusineError(
          'validation',
          'The server granted the token but did not give its key',
          {
            operation: 'repositories.grantToken',
          },
        );
      }
      const { url } = await archiveUrl();
      return {
        tokenHash: granted.token_hash,
        username: granted.username ?? username,
        comment: granted.comment ?? null,
        role: granted.role,
        key,
        authConf: authConfLine(url, scopeOf(archive), workspace, granted.username ?? username, key),
      };
    },

    'repositories.revokeToken': async ({ workspace, suite, tokenHash }) => {
      await client().collectionTokenRevoke(workspace, ...tokenTarget(suite), tokenHash, 'viewer');
      return undefined;
    },
  };
}

/** What the archive host answered a request for a repository's root, or why it did not. */
export type ArchiveProbe = { status: number } | { problem: string };

/** How long the archive host has to answer: apt's own default waits longer, a page should not. */
const PROBE_MS = 5_000;

/**
 * Asks the archive host for a repository's root, as a stranger: 200 means anyone may read
 * it, 404 that it is private (a private workspace is "not found" to strangers). Nothing of the
 * user's goes with it, and a redirect is not followed: the archive host is another origin than
 * the API. When no answer comes, says why in words the user can act on.
 */
export async function probeArchive(uri: string): Promise<ArchiveProbe> {
  try {
    const response = await fetch(`${uri}/`, {
      method: 'HEAD',
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_MS),
    });
    return { status: response.status };
  } catch (error) {
    return { problem: archiveFailure(error, uri) };
  }
}

function archiveFailure(error: unknown, uri: string): string {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `no answer within ${String(PROBE_MS / 1000)} s`;
  }
  const code = errorCauseCode(error);
  if (code === 'ECONNREFUSED') return 'connection refused: nothing listens there';
  if (code === 'ENOTFOUND') return 'no such host name';
  if (code !== undefined && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS/.test(code)) {
    // Node checks against its own list of authorities, apt against the system's: a local
    // authority the system trusts may still let apt in.
    return `its certificate is not one this app trusts (${code}); apt may still accept it if your system trusts its authority`;
  }
  const known = code === undefined ? undefined : NETWORK_REASONS[code];
  if (known !== undefined) return known;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof Error && cause.message === 'bad port') {
    // fetch refuses the ports of other protocols (the Fetch standard's "bad ports"); apt
    // does not, so the host is not to blame.
    return `this app may not ask port ${new URL(uri).port} (a port of another protocol); apt may still reach it`;
  }
  return cause instanceof Error ? cause.message : 'the request failed';
}

/** Whether a probe says the archive serves the repository to anyone; null when it cannot tell. */
export function servedToAnyone(probe: ArchiveProbe): boolean | null {
  if (!('status' in probe)) return null;
  if (probe.status === 200) return true;
  if (probe.status === 404) return false;
  return null;
}
