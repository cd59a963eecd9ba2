/**
 * Which revision of the interface a server speaks, detected once per client.
 *
 * How: `GET /whoami/` (anonymous works too) tells the generations apart. Servers of 0.13 and
 * later answer `{user, auth, work_request, worker}`; 0.11 and 0.12 answer
 * `{user, auth, worker_token}`. For the earlier generation one more anonymous probe,
 * `GET /open-metrics/` (added in 0.12), tells 0.12 (which has abort, workspace inheritance
 * and task configuration) from 0.11 (which has none of them). No server reports its exact
 * version over the API, so the release is a range.
 *
 * Routes a server lacks answer Django's HTML 404 (not problem+json); once detection has
 * succeeded (so the URL and scope are right) such an answer means "no such operation" and
 * becomes an `unsupported` error too, for releases between the ones detected here. That
 * rule is ApiContext.request's, the one way operations reach the server.
 */
import type { z } from 'zod';
import { DebusineError } from '../../shared/errors';
import { whoamiSchema } from '../../shared/models';
import { formatLimit, readTextUpTo } from './body-limits';
import { exchange } from './exchange';
import type { HttpTransport, Parsed, RawResponse, RequestSpec } from './http';
import { errorFromResponse, isPageNotFound } from './http-errors';

export type Generation = 'current' | 'earlier';

export interface ServerFeatures {
  /** `/workflow-template/{workspace}/…` with static/runtime parameters (0.13+). */
  workspaceTemplates: boolean;
  /** `/workflow-template/` and `/workflow-template/{id}/` with `task_data` (≤ 0.12). */
  legacyTemplates: boolean;
  collections: boolean;
  abort: boolean;
  workspaceInheritance: boolean;
  taskConfiguration: boolean;
  confirm: boolean;
  /** Lookups resolve in a workspace with a user token (0.13+), not for a work request. */
  lookupsByWorkspace: boolean;
  /** The work request list filters status, task_type, root_only and ids (0.13+). */
  workRequestFilters: boolean;
  /** PATCH of a work request answers the work request (not empty). */
  updateReturnsWorkRequest: boolean;
}

export interface ServerRevision {
  apiUrl: string;
  generation: Generation;
  /** What is known of the release: `0.13 or later`, `0.12`, `0.11`. */
  release: string;
  features: ServerFeatures;
}

const CURRENT: ServerFeatures = {
  workspaceTemplates: true,
  legacyTemplates: false,
  collections: true,
  abort: true,
  workspaceInheritance: true,
  taskConfiguration: true,
  confirm: true,
  lookupsByWorkspace: true,
  workRequestFilters: true,
  updateReturnsWorkRequest: true,
};

function earlierFeatures(has012: boolean): ServerFeatures {
  return {
    workspaceTemplates: false,
    legacyTemplates: true,
    collections: false,
    abort: has012,
    workspaceInheritance: has012,
    taskConfiguration: has012,
    confirm: false,
    lookupsByWorkspace: false,
    workRequestFilters: false,
    updateReturnsWorkRequest: true,
  };
}

export async function detectRevision(http: HttpTransport): Promise<ServerRevision> {
  // Detection cannot ask itself: an HTML 404 here means the URL or the scope is wrong.
  const me = await exchange(http, {
    operation: 'detectRevision',
    method: 'GET',
    path: '/whoami/',
    schema: whoamiSchema,
  });
  if (me.worker !== undefined || me.work_request !== undefined) {
    return {
      apiUrl: http.apiUrl,
      generation: 'current',
      release: '0.13 or later',
      features: CURRENT,
    };
  }
  const probe = await http.send({
    operation: 'detectRevision',
    method: 'GET',
    path: '/open-metrics/',
  });
  await probe.body.dump();
  const has012 = probe.status === 200;
  return {
    apiUrl: http.apiUrl,
    generation: 'earlier',
    release: has012 ? '0.12' : '0.11',
    features: earlierFeatures(has012),
  };
}

export function describeServer(revision: ServerRevision): string {
  return `${revision.apiUrl} (Debusine ${revision.release})`;
}

export function unsupportedError(operation: string, revision: ServerRevision): DebusineError {
  return new DebusineError(
    'unsupported',
    `${operation} is not supported by this server: ${describeServer(revision)}`,
    { operation, server: revision.apiUrl, release: revision.release },
  );
}

/** What every operation module works with: the transport and the server's revision. */
export class ApiContext {
  readonly http: HttpTransport;
  #revision: Promise<ServerRevision> | undefined;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  /** Detected on first use and cached; a failed detection is retried next time. */
  revision(): Promise<ServerRevision> {
    if (!this.#revision) {
      const pending = detectRevision(this.http);
      this.#revision = pending;
      pending.catch(() => {
        if (this.#revision === pending) this.#revision = undefined;
      });
    }
    return this.#revision;
  }

  /** The revision, after checking that it offers a feature; otherwise `unsupported`. */
  async require(operation: string, feature: keyof ServerFeatures): Promise<ServerRevision> {
    const revision = await this.revision();
    if (!revision.features[feature]) throw unsupportedError(operation, revision);
    return revision;
  }

  /**
   * The one way an operation reaches the server, with one error policy: a refusal becomes
   * the DebusineError of its status and problem+json (http-errors.ts), except Django's own
   * HTML 404 page. That page answers a URL the server does not know and an unknown scope;
   * when the revision can be detected (the URL and scope are right), it means this release
   * lacks the route: `unsupported`, naming the server. Otherwise it stays `not-found`, with
   * the hint to check the server URL and scope.
   */
  request<S extends z.ZodType | undefined = undefined>(spec: RequestSpec<S>): Promise<Parsed<S>> {
    return exchange(this.http, spec, (operation, response) => this.#refusal(operation, response));
  }

  /**
   * As request, for an answer that is text rather than JSON (the server's metrics), read
   * only up to `limit` bytes: a longer one is refused, unread past the limit.
   */
  async requestText(spec: Omit<RequestSpec<undefined>, 'schema'>, limit: number): Promise<string> {
    const response = await this.http.send(spec);
    if (!(spec.expect ?? [200]).includes(response.status)) {
      throw await this.#refusal(spec.operation, response);
    }
    const text = await readTextUpTo(response, limit);
    if (text === undefined) {
      throw new DebusineError(
        'bad-response',
        `The server's answer to ${spec.operation} is larger than ${formatLimit(limit)}`,
        { operation: spec.operation, status: response.status, limit },
      );
    }
    return text;
  }

  async #refusal(operation: string, response: RawResponse): Promise<DebusineError> {
    const error = await errorFromResponse(operation, response);
    if (!isPageNotFound(error)) return error;
    const revision = await this.revision().catch(() => undefined);
    return revision ? unsupportedError(operation, revision) : error;
  }
}
