/**
 * Local artifact drafts: staged files → a kind, its files and data, and the
 * problems the file-set rules find. Drafts live in main; the renderer holds their ids.
 *
 * Staged files may sit under random names (the web host's staging area) while a .changes
 * or .dsc names its files, so each draft gets a directory of links under the names the
 * user dropped, in the data directory (hard links where possible: they keep the bytes
 * even when the staged copy is released, so an upload can resume after a restart).
 */
import { randomUUID } from 'node:crypto';
import { copyFile, link, mkdir, readdir, rm, stat, symlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  CATEGORIES,
  createUpload,
  detectKind,
  readChanges,
  readDsc,
  labelOf,
  LocalArtifact,
  validateLocalArtifact,
  type KindName,
} from '../artifacts';
import type { Caller } from '../bridge/caller';
import type { ServiceHandlers } from '../bridge/dispatch';
import type {
  ArtifactKindInfo,
  LocalArtifactDraft,
  LocalArtifactProblem,
} from '../../shared/contract';
import { DebusineError, serializeError, type SerializedError } from '../../shared/errors';
import { changesSet } from '../artifacts/local/changes-set';
import type { DputPlanner } from '../dput/plan';
import type { StagedFiles } from './staged-files';

type Handlers = Pick<
  ServiceHandlers,
  | 'localArtifacts.detect'
  | 'localArtifacts.update'
  | 'localArtifacts.discard'
  | 'localArtifacts.list'
  | 'localArtifacts.kinds'
>;

export interface Draft {
  view: LocalArtifactDraft;
  /** The validated artifact, when there are no problems. */
  artifact: LocalArtifact | null;
  dir: string;
  fileIds: string[];
  /** Link path → staged file id. */
  ids: Map<string, string>;
  /**
   * Files a dropped .changes or .dsc lists that were not dropped but lie beside it in the
   * user's folder: link path → the user's file and its size.
   */
  beside: Map<string, { path: string; size: number }>;
  /** The user's folders those were looked for in (none in the browser host). */
  lookedIn: string[];
  /** Names of listed files the user left out (the upload rules accept them as absent). */
  excludedNames: string[];
  /**
   * The files the user left out, by id. The view's excludedFileIds also lists the files no
   * kind took; those come back when the user picks a kind that takes them.
   */
  userExcluded: string[];
  /** Every artifact the upload makes, `artifact` first (changes-set.ts). */
  parts: LocalArtifact[];
  /** What the view's workflow proposal was made for (DputPlanner.proposalKey). */
  proposalKey: string | null;
}

function isSerialized(value: unknown): value is SerializedError {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Error) &&
    typeof (value as { message?: unknown }).message === 'string' &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

/**
 * Problems from a thrown error, or from one detection already serialised. An error about
 * several files (the local checks') lists one problem per file in `details.problems`, so
 * that each shows next to its own file.
 */
function problemsOf(error: unknown): LocalArtifactProblem[] {
  const e = isSerialized(error) ? error : serializeError(error);
  const listed = Array.isArray(e.details?.problems) ? (e.details.problems as unknown[]) : [];
  const parts = listed.filter(isProblemLike);
  return (parts.length > 0 ? parts : [{ ...e.details, message: e.message }]).map((p) => {
    const rule = typeof p.rule === 'string' ? p.rule : e.code;
    const file = typeof p.file === 'string' ? basename(p.file) : undefined;
    return { rule, message: p.message, ...(file !== undefined ? { file } : {}) };
  });
}

function isProblemLike(
  value: unknown,
): value is { message: string; rule?: unknown; file?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

function isControlFile(path: string): boolean {
  return path.endsWith('.changes') || path.endsWith('.dsc');
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

/**
 * The files a .changes or .dsc lists, by name (the parser refuses any name that is not a
 * plain file name); none when it cannot be read, which its kind's builder then says.
 */
async function listedNames(control: string): Promise<string[]> {
  const parsed = await (control.endsWith('.changes') ? readChanges : readDsc)(control).catch(
    () => undefined,
  );
  if (!parsed) return [];
  return (parsed.sha256.length > 0 ? parsed.sha256 : parsed.files).map((f) => f.name);
}

/** The key under which a renderer holds a draft it made, until an upload takes it. */
export function draftKey(draftId: string): string {
  return `draft:${draftId}`;
}

/** A draft this renderer made and still holds; another renderer's is not found. */
export function requireHeldDraft(caller: Caller, draftId: string): void {
  if (!caller.holds(draftKey(draftId))) {
    throw new DebusineError('not-found', `No draft ${JSON.stringify(draftId)}`);
  }
}

export class DraftStore {
  readonly #drafts = new Map<string, Draft>();
  readonly #root: string;
  readonly #files: StagedFiles;
  readonly #planner: DputPlanner | undefined;

  constructor(dataDir: string, files: StagedFiles, planner?: DputPlanner) {
    this.#root = join(dataDir, 'drafts');
    this.#files = files;
    this.#planner = planner;
  }

  get(draftId: string): Draft {
    const draft = this.#drafts.get(draftId);
    if (!draft) throw new DebusineError('not-found', `No draft ${JSON.stringify(draftId)}`);
    return draft;
  }

  async #linkAll(dir: string, fileIds: readonly string[]): Promise<Map<string, string>> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const ids = new Map<string, string>();
    for (const id of fileIds) {
      const staged = this.#files.get(id);
      if (!staged) throw new DebusineError('not-found', `No staged file ${JSON.stringify(id)}`);
      const target = join(dir, staged.name);
      if (ids.has(target)) {
        throw new DebusineError('validation', `Two dropped files are named ${staged.name}`, {
          rule: 'unique-names',
          file: staged.name,
        });
      }
      const source = this.#files.path(id);
      // A copy main made is deleted when released, which a symbolic link would not survive.
      const fallback = this.#files.isOwned(id) ? copyFile : symlink;
      await link(source, target).catch(() => fallback(source, target));
      ids.set(target, id);
    }
    return ids;
  }

  async create(fileIds: readonly string[], allowRemote: boolean): Promise<LocalArtifactDraft> {
    const draftId = randomUUID();
    const dir = join(this.#root, draftId);
    const ids = await this.#linkAll(dir, fileIds).catch(async (error: unknown) => {
      // Two files of one name, or a file released meanwhile: no draft, and no folder.
      await rm(dir, { recursive: true, force: true });
      throw error;
    });
    const draft: Draft = {
      view: {
        draftId,
        kind: null,
        category: null,
        reason: '',
        files: [],
        excludedFileIds: [],
        userExcludedFileIds: [],
        dropped: fileIds.flatMap((id) => {
          const file = this.#files.get(id);
          return file ? [{ id, name: file.name, size: file.size }] : [];
        }),
        data: {},
        problems: [],
        allowRemote,
        beside: [],
        ready: false,
        parts: [],
        notes: [],
        workflow: null,
      },
      artifact: null,
      dir,
      fileIds: [...fileIds],
      ids,
      beside: new Map(),
      lookedIn: [],
      excludedNames: [],
      userExcluded: [],
      parts: [],
      proposalKey: null,
    };
    this.#drafts.set(draftId, draft);
    await this.#gatherListed(draft);
    await this.#evaluate(draft, undefined, []);
    return draft.view;
  }

  /**
   * Links into the draft's folder the files its .changes and .dsc list that were not
   * dropped but lie beside the dropped control file in the user's own folder, where
   * dpkg-source and dput-ng find them (the orig tarball of a new Debian revision, which
   * its .changes does not list). Only a file main did not copy has such a folder: in the
   * browser host, what the folder chooser gave is all there is.
   */
  async #gatherListed(draft: Draft): Promise<void> {
    const controls = [...draft.ids].filter(([path]) => isControlFile(path));
    draft.lookedIn = [
      ...new Set(
        controls
          .filter(([, id]) => !this.#files.isOwned(id))
          .map(([, id]) => dirname(this.#files.path(id))),
      ),
    ];
    const queue = controls.map(([path]) => path);
    const seen = new Set<string>();
    for (let control = queue.shift(); control !== undefined; control = queue.shift()) {
      if (seen.has(control)) continue;
      seen.add(control);
      for (const name of await listedNames(control)) {
        const target = join(draft.dir, name);
        if (!(await isFile(target))) {
          for (const folder of draft.lookedIn) {
            const source = join(folder, name);
            const info = await stat(source).catch(() => undefined);
            if (!info?.isFile()) continue;
            await link(source, target).catch(() => symlink(source, target));
            draft.beside.set(target, { path: source, size: info.size });
            break;
          }
        }
        if (name.endsWith('.dsc') && (await isFile(target))) queue.push(target);
      }
    }
  }

  /**
   * The problems of the files the chosen kind's control files list that are neither in
   * the draft nor (allow_remote) declared remote, each saying where the app looked.
   */
  async #missingProblems(
    draft: Draft,
    included: readonly string[],
    kind: KindName | null,
  ): Promise<LocalArtifactProblem[]> {
    if (kind !== 'upload' && kind !== 'sourcePackage') return [];
    const ending = kind === 'upload' ? '.changes' : '.dsc';
    const control = included.find((p) => p.endsWith(ending));
    if (control === undefined) return [];
    const listedBy = new Map<string, string>();
    for (const name of await listedNames(control)) {
      if (!draft.excludedNames.includes(name)) listedBy.set(name, basename(control));
    }
    for (const [name] of listedBy) {
      if (!name.endsWith('.dsc') || !(await isFile(join(draft.dir, name)))) continue;
      for (const listed of await listedNames(join(draft.dir, name))) {
        if (!listedBy.has(listed)) listedBy.set(listed, name);
      }
    }
    const where =
      draft.lookedIn.length > 0
        ? `among the files given, nor in ${draft.lookedIn.join(', ')}`
        : 'among the files given (choose the folder that holds it)';
    const problems: LocalArtifactProblem[] = [];
    for (const [name, by] of listedBy) {
      if (await isFile(join(draft.dir, name))) continue;
      problems.push({
        rule: 'missing-file',
        file: name,
        message: `${name} is listed in ${by} but is not ${where}`,
      });
    }
    return problems;
  }

  async update(
    draftId: string,
    changes: {
      kind?: string | undefined;
      excludeFiles?: string[] | undefined;
      allowRemote?: boolean | undefined;
    },
  ): Promise<LocalArtifactDraft> {
    const draft = this.get(draftId);
    if (changes.kind !== undefined && !(changes.kind in CATEGORIES)) {
      throw new DebusineError('validation', `Unknown artifact kind ${changes.kind}`, {
        rule: 'kind',
      });
    }
    if (changes.allowRemote !== undefined) draft.view.allowRemote = changes.allowRemote;
    const excluded = changes.excludeFiles ?? draft.userExcluded;
    for (const id of excluded) {
      if (!draft.fileIds.includes(id)) {
        throw new DebusineError('validation', `File ${id} is not part of this draft`, {
          rule: 'exclude',
        });
      }
    }
    draft.userExcluded = [...excluded];
    await this.#evaluate(
      draft,
      (changes.kind ?? undefined) as KindName | undefined,
      excluded,
      changes.kind === undefined && draft.view.kind !== null
        ? (draft.view.kind as KindName)
        : undefined,
    );
    return draft.view;
  }

  async #evaluate(
    draft: Draft,
    kind: KindName | undefined,
    excluded: string[],
    keepKind?: KindName,
  ): Promise<void> {
    const included = [
      ...[...draft.ids].filter(([, id]) => !excluded.includes(id)).map(([p]) => p),
      ...draft.beside.keys(),
    ];
    const excludedNames = [...draft.ids]
      .filter(([, id]) => excluded.includes(id))
      .map(([p]) => basename(p));
    const allowRemote = draft.view.allowRemote;
    draft.excludedNames = excludedNames;
    const detection = await detectKind(included, { allowRemote });
    let artifact = detection.artifact;
    let chosen: KindName | null = detection.kind;
    let reason = detection.reason;
    let problems: LocalArtifactProblem[] = detection.error ? problemsOf(detection.error) : [];
    const changesFile = included.find((p) => p.endsWith('.changes'));
    if (detection.kind === 'upload' && excludedNames.length > 0 && changesFile) {
      // Leaving out a listed file of an upload is the upload rules' own option.
      try {
        artifact = await createUpload({ changesFile, excludeFiles: excludedNames, allowRemote });
        problems = [];
      } catch (error) {
        artifact = null;
        problems = problemsOf(error);
      }
    }
    const wanted = kind ?? keepKind;
    if (wanted !== undefined && wanted !== detection.kind) {
      // A kind chosen by hand: the included files under that category, with the detected
      // data only where it is the same kind; the rules then say what is missing.
      chosen = wanted;
      reason = `Chosen by hand: ${CATEGORIES[wanted]}`;
      const manual = new LocalArtifact(CATEGORIES[wanted], {});
      problems = [];
      try {
        for (const path of included) await manual.addLocalFile(path);
        validateLocalArtifact(manual);
        artifact = manual;
      } catch (error) {
        artifact = null;
        problems = problemsOf(error);
      }
      if (!artifact) {
        draft.artifact = null;
        draft.parts = [];
        this.#setView(draft, chosen, reason, manual, problems, excluded);
        draft.view = { ...draft.view, parts: [], notes: [], workflow: null };
        draft.proposalKey = null;
        return;
      }
    }
    if (!allowRemote) {
      // Said with where the app looked, instead of the builder's "does not exist".
      const missing = await this.#missingProblems(draft, included, chosen);
      const names = new Set(missing.map((p) => p.file));
      problems = [...problems.filter((p) => !names.has(p.file)), ...missing];
    }
    if (chosen === null && problems.length === 0) {
      problems.push({ rule: 'kind', message: detection.reason });
    }
    draft.artifact = problems.length === 0 ? artifact : null;
    draft.parts = [];
    let notes: string[] = [];
    let workflow: LocalArtifactDraft['workflow'] = null;
    if (draft.artifact) {
      try {
        const set = await changesSet(draft.artifact, { allowRemote });
        draft.parts = set.parts;
        notes = set.notes;
      } catch (error) {
        draft.artifact = null;
        problems = problemsOf(error);
      }
    }
    if (draft.artifact?.category === CATEGORIES.upload && this.#planner) {
      const key = this.#planner.proposalKey(draft.artifact);
      workflow =
        key === draft.proposalKey
          ? draft.view.workflow
          : await this.#planner.propose(draft.artifact);
      draft.proposalKey = key;
    } else {
      draft.proposalKey = null;
    }
    this.#setView(draft, chosen, reason, artifact, problems, excluded);
    draft.view.parts = draft.parts.map((part) => ({
      category: part.category,
      label: labelOf(part.paths()),
    }));
    draft.view.notes = notes;
    draft.view.workflow = workflow;
  }

  #setView(
    draft: Draft,
    kind: KindName | null,
    reason: string,
    artifact: LocalArtifact | null,
    problems: LocalArtifactProblem[],
    excluded: string[],
  ): void {
    const files: LocalArtifactDraft['files'] = [];
    const taken = new Set<string>();
    const beside: LocalArtifactDraft['beside'] = [];
    // The upload's files, then those only its packages take (a .dsc's orig tarball).
    const parts = draft.parts.length > 0 ? draft.parts : artifact ? [artifact] : [];
    for (const part of parts) {
      for (const [pathInArtifact, local] of part.files) {
        const fileId = draft.ids.get(local);
        const original = draft.beside.get(local);
        if (original !== undefined && !beside.some((b) => b.name === pathInArtifact)) {
          beside.push({
            name: pathInArtifact,
            size: original.size,
            folder: dirname(original.path),
          });
        }
        if (fileId === undefined || taken.has(fileId)) continue;
        taken.add(fileId);
        files.push({ fileId, pathInArtifact, size: this.#files.get(fileId)?.size ?? 0 });
      }
    }
    draft.view = {
      ...draft.view,
      kind,
      category: kind === null ? null : CATEGORIES[kind],
      reason,
      files,
      beside,
      excludedFileIds: draft.fileIds.filter((id) => excluded.includes(id) || !taken.has(id)),
      userExcludedFileIds: draft.fileIds.filter((id) => excluded.includes(id)),
      data: artifact?.data ?? {},
      problems,
      ready: problems.length === 0 && draft.artifact !== null && files.length > 0,
    };
  }

  /**
   * Releases those of these staged files that no draft this page still holds is made of:
   * a discarded draft's, or one an upload took (which reads the draft's own links). The web
   * host's copies are deleted then.
   */
  async releaseUnusedFiles(caller: Caller, fileIds: readonly string[]): Promise<void> {
    const used = new Set(
      [...this.#drafts.values()]
        .filter((d) => caller.holds(draftKey(d.view.draftId)))
        .flatMap((d) => d.fileIds),
    );
    await this.#files.releaseFor(
      caller,
      fileIds.filter((id) => !used.has(id)),
    );
  }

  /** Forgets a draft; its link directory goes unless an upload still reads from it. */
  async discard(draftId: string, keepFiles = false): Promise<void> {
    const draft = this.#drafts.get(draftId);
    if (!draft) return;
    this.#drafts.delete(draftId);
    if (!keepFiles) await rm(draft.dir, { recursive: true, force: true });
  }

  /** The draft folders that hold these local files (an upload's, read from its record). */
  #foldersOf(paths: Iterable<string>): Set<string> {
    const folders = new Set<string>();
    for (const path of paths) {
      const folder = dirname(path);
      if (dirname(folder) === this.#root) folders.add(folder);
    }
    return folders;
  }

  /**
   * Removes the draft folders a run left that no upload reads from: the page that made
   * them is gone with that run. Returns the folders removed.
   */
  async sweep(inUse: Iterable<string>): Promise<string[]> {
    const keep = this.#foldersOf(inUse);
    for (const draft of this.#drafts.values()) keep.add(draft.dir);
    const names = await readdir(this.#root).catch(() => []);
    const removed: string[] = [];
    for (const name of names) {
      const folder = join(this.#root, name);
      if (keep.has(folder)) continue;
      await rm(folder, { recursive: true, force: true });
      removed.push(folder);
    }
    return removed;
  }

  /** An upload resumed after a restart has ended: its draft's folder goes too. */
  async removeFoldersOf(paths: Iterable<string>): Promise<void> {
    const live = new Set([...this.#drafts.values()].map((d) => d.dir));
    for (const folder of this.#foldersOf(paths)) {
      if (!live.has(folder)) await rm(folder, { recursive: true, force: true });
    }
  }

  handlers(): Handlers {
    return {
      'localArtifacts.detect': async ({ fileIds, allowRemote }, caller) => {
        this.#files.claim(caller, fileIds);
        const draft = await this.create(fileIds, allowRemote);
        // Its folder of links goes with the page that made it, unless an upload takes it.
        caller.hold(draftKey(draft.draftId), () => this.discard(draft.draftId));
        return [draft];
      },
      'localArtifacts.update': async ({ draftId, ...changes }, caller) => {
        requireHeldDraft(caller, draftId);
        return this.update(draftId, changes);
      },
      'localArtifacts.discard': async ({ draftId }, caller) => {
        const fileIds = caller.holds(draftKey(draftId)) ? this.get(draftId).fileIds : [];
        await caller.release(draftKey(draftId));
        await this.releaseUnusedFiles(caller, fileIds);
        return undefined;
      },
      'localArtifacts.list': (_args, caller) =>
        Promise.resolve(
          [...this.#drafts.values()]
            .filter((d) => caller.holds(draftKey(d.view.draftId)))
            .map((d) => d.view),
        ),
      'localArtifacts.kinds': () =>
        Promise.resolve(
          Object.entries(CATEGORIES).map(([kind, category]): ArtifactKindInfo => ({
            kind,
            category,
          })),
        ),
    };
  }
}
