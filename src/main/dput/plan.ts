/**
 * What dput would do after uploading a .changes to the active server: the workflow its
 * Debusine profile names for the .changes' Distribution, in the profile's workspace. Like
 * dput-ng's pre-upload hook, a .changes with no workflow for its Distribution is said
 * before anything is sent; unlike it, the template is also looked up on the server, so that
 * a name the server does not know is said then too, rather than after the upload.
 *
 * Whether to start it without asking is a setting of the app's, kept in the data directory.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { PublishTarget, WorkflowProposal } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import { changesFieldsOf } from '../artifacts/local/changes-set';
import { fieldString } from '../artifacts/local/debian-files';
import type { LocalArtifact } from '../artifacts/local/local-artifact';
import type { SessionProvider } from '../api/session-provider';
import { readJsonFile, writeJsonFile } from '../json-file';
import { chooseWorkflow, defaultDputDirs, DputProfiles } from './profiles';

/** The suites an upload can be published to on the active server, and when they change. */
export interface PublishTargets {
  list(): Promise<PublishTarget[]>;
  /** Moves on each change, so that drafts ask again. */
  version(): number;
}

const settingsSchema = z.object({ dputWorkflow: z.enum(['offer', 'always']).catch('offer') });
export type UploadSettings = z.infer<typeof settingsSchema>;

export class DputPlanner {
  readonly #dirs: readonly string[] | undefined;
  readonly #session: SessionProvider;
  readonly #settingsFile: string;

  readonly #targets: PublishTargets | undefined;

  constructor(options: {
    session: SessionProvider;
    dataDir: string;
    dirs?: readonly string[];
    /** The suites of the user's repositories an upload can be published to instead. */
    targets?: PublishTargets;
  }) {
    this.#session = options.session;
    this.#dirs = options.dirs;
    this.#settingsFile = join(options.dataDir, 'upload-settings.json');
    this.#targets = options.targets;
  }

  /** The directories dput-ng reads, the user's last. */
  get dirs(): readonly string[] {
    return this.#dirs ?? defaultDputDirs();
  }

  async settings(): Promise<UploadSettings> {
    const raw = await readJsonFile(this.#settingsFile).catch(() => undefined);
    const parsed = settingsSchema.safeParse(raw ?? {});
    return parsed.success ? parsed.data : { dputWorkflow: 'offer' };
  }

  async setSettings(settings: UploadSettings): Promise<UploadSettings> {
    const valid = settingsSchema.parse(settings);
    await writeJsonFile(this.#settingsFile, valid);
    return valid;
  }

  /**
   * What a proposal depends on besides the files on disk: the active server and the
   * .changes' Distribution. A draft whose files the user leaves out or takes back keeps
   * its proposal while this stays the same, rather than reading the profiles and asking
   * the server for the template again on every click.
   */
  proposalKey(upload: LocalArtifact): string {
    const server = this.#session.active();
    const distribution = fieldString(changesFieldsOf(upload), 'Distribution') ?? '';
    const targets = this.#targets?.version() ?? 0;
    return JSON.stringify([server?.id, server?.apiUrl, server?.scope, distribution, targets]);
  }

  /** The proposal for an upload artifact, or null when no dput-ng profile is for this server. */
  async propose(upload: LocalArtifact): Promise<WorkflowProposal | null> {
    const server = this.#session.active();
    if (!server) return null;
    const profiles = new DputProfiles(this.#dirs);
    const profile = await profiles.forServer(server.apiUrl, server.scope);
    const targets = (await this.#targets?.list()) ?? [];
    const distribution = fieldString(changesFieldsOf(upload), 'Distribution') ?? '';
    const always = (await this.settings()).dputWorkflow === 'always';
    if (!profile) {
      if (targets.length === 0) return null;
      // Publishing to the user's suites needs no profile of the server's.
      return {
        profile: null,
        profileFiles: [],
        distribution,
        always,
        template: null,
        workspace: null,
        data: { source_artifact: '@UPLOAD@' },
        problem: 'No dput-ng profile is for this server',
        targets,
      };
    }
    const choice = chooseWorkflow(profile, distribution);
    const base = {
      profile: profile.name,
      profileFiles: profile.files,
      distribution,
      always,
      targets,
    };
    if ('problem' in choice) {
      const workspace = profile.fields.debusine_workspace;
      return {
        ...base,
        template: null,
        workspace: typeof workspace === 'string' ? workspace : null,
        data: {},
        problem: choice.problem,
      };
    }
    return {
      ...base,
      template: choice.template,
      workspace: choice.workspace,
      data: choice.data,
      problem: await this.#missingTemplate(choice.template, choice.workspace, distribution),
    };
  }

  /** Why the server cannot start the template, or null when it has it. */
  async #missingTemplate(
    template: string,
    workspace: string,
    distribution: string,
  ): Promise<string | null> {
    try {
      const client = this.#session.client();
      await client.workflowTemplateGet(workspace, template);
      return null;
    } catch (error) {
      if (error instanceof DebusineError && error.code === 'not-found') {
        return `The server has no workflow template ${template} in ${workspace}, which the dput-ng profile names for the distribution ${JSON.stringify(distribution)}`;
      }
      const reason = error instanceof Error ? error.message : String(error);
      return `Could not check the workflow template ${template} in ${workspace}: ${reason}`;
    }
  }
}
