/**
 * DebusineClient: one async method per operation of the interface specification, named in
 * camelCase after it, speaking to real Debusine servers (0.16 and 0.11 releases).
 */
import {
  paginatedSchema,
  whoamiSchema,
  workRequestRequestSchema,
  workRequestResponseSchema,
  type Whoami,
  type WorkRequestRequest,
  type WorkRequestResponse,
} from '../../shared/models';
import type { ZodType } from 'zod';
import { DebusineError } from '../../shared/errors';
import { HttpTransport, type HttpOptions } from './http';
import { parseRequest } from './validate';

export interface DebusineClientOptions extends HttpOptions {
  apiUrl: string;
  token?: string | undefined;
  scope?: string | undefined;
}

export interface WorkRequestFilters {
  status?: string;
  taskType?: string;
  rootOnly?: boolean;
  ids?: readonly number[];
}

export class DebusineClient {
  readonly http: HttpTransport;

  constructor(options: DebusineClientOptions) {
    this.http = new HttpTransport(options);
  }

  get apiUrl(): string {
    return this.http.apiUrl;
  }

  get scope(): string | undefined {
    return this.http.scope;
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  /** Who the server thinks we are: the way to check a token (bad ones become anonymous). */
  async whoami(): Promise<Whoami> {
    return this.http.request({
      operation: 'whoami',
      method: 'GET',
      path: '/whoami/',
      schema: whoamiSchema,
    });
  }

  /** Like whoami, but fails with an `auth` error when the token is not accepted. */
  async checkToken(): Promise<Whoami> {
    const me = await this.whoami();
    if (!me.auth) {
      throw new DebusineError(
        'auth',
        this.http.hasToken
          ? 'The server did not accept the token (it is unknown, expired or disabled).'
          : 'No token is configured for this server.',
        { operation: 'checkToken', server: this.apiUrl },
      );
    }
    return me;
  }

  async workRequestCreate(request: WorkRequestRequest): Promise<WorkRequestResponse> {
    const body = parseRequest('workRequestCreate', workRequestRequestSchema, request);
    const { workspace, ...rest } = body;
    return this.http.request({
      operation: 'workRequestCreate',
      method: 'POST',
      path: '/work-request/',
      // The server picks its default workspace when none is sent.
      body: workspace === null ? rest : body,
      expect: [200, 201],
      schema: workRequestResponseSchema,
    });
  }

  async workRequestGet(id: number): Promise<WorkRequestResponse> {
    return this.http.request({
      operation: 'workRequestGet',
      method: 'GET',
      path: `/work-request/${String(id)}/`,
      schema: workRequestResponseSchema,
    });
  }

  /** Every work request, newest first, fetched page by page as the caller iterates. */
  workRequestIter(filters: WorkRequestFilters = {}): AsyncIterableIterator<WorkRequestResponse> {
    return this.paginate('workRequestIter', '/work-request/', workRequestResponseSchema, {
      status: filters.status,
      task_type: filters.taskType,
      root_only: filters.rootOnly ? 'true' : undefined,
      ids: filters.ids?.join(','),
    });
  }

  /** Follows `next` links lazily; works for the page/count and the cursor forms alike. */
  protected async *paginate<T>(
    operation: string,
    path: string,
    item: ZodType<T>,
    query: Record<string, string | undefined> = {},
  ): AsyncIterableIterator<T> {
    const schema = paginatedSchema(item);
    let next: string | null | undefined = this.http.url(path, { query });
    while (next) {
      const page: { results: T[]; next?: string | null } = await this.http.request({
        operation,
        method: 'GET',
        path: next,
        schema,
      });
      yield* page.results;
      next = page.next;
    }
  }
}
