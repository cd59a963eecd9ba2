/**
 * The transport-independent half of the bridge in main: it takes a request name and the
 * untrusted arguments from any transport (Electron IPC, the web host's WebSocket, the
 * in-memory pair of the tests), checks both against the contract, runs the service, and
 * answers with a Reply. Nothing thrown ever crosses as an exception.
 */
import {
  isRequestChannel,
  requests,
  type Reply,
  type RequestChannel,
  type RequestParsed,
  type RequestResult,
} from '../../shared/contract';
import { DebusineError, serializeError } from '../../shared/errors';
import type { Caller } from './caller';

/**
 * The service as the bridge sees it: one async function per request, keyed by its name,
 * given the renderer that asked (what it opens is held by that renderer).
 */
export type ServiceHandlers = {
  [C in RequestChannel]: (args: RequestParsed<C>, caller: Caller) => Promise<RequestResult<C>>;
};

export type Dispatch = (channel: unknown, args: unknown, caller: Caller) => Promise<Reply<unknown>>;

export interface DispatchOptions {
  /** Called for errors that are not DebusineErrors (bugs), with the channel. */
  onInternalError?: (channel: string, error: unknown) => void;
}

export function createDispatcher(
  service: ServiceHandlers,
  options: DispatchOptions = {},
): Dispatch {
  return async (channel, args, caller) => {
    if (!isRequestChannel(channel)) {
      return failure(
        new DebusineError('validation', `Unknown request: ${describe(channel)}`, {
          operation: describe(channel),
        }),
      );
    }
    const parsed = requests[channel].args.safeParse(args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.map(String).join('.') ?? '';
      return failure(
        new DebusineError(
          'validation',
          `Invalid arguments for ${channel}: ${field ? `${field}: ` : ''}${issue?.message ?? 'refused'}`,
          {
            operation: channel,
            ...(field ? { field } : {}),
            issues: parsed.error.issues.map((i) => ({
              path: i.path.map(String).join('.'),
              message: i.message,
            })),
          },
        ),
      );
    }
    try {
      // The handler table is indexed by the same name the schema was, so the parsed value
      // has that handler's argument type; TypeScript cannot correlate the two unions.
      const handler = service[channel] as (a: unknown, c: Caller) => Promise<unknown>;
      const result = await handler(parsed.data, caller);
      return { ok: true, result };
    } catch (error) {
      if (!(error instanceof DebusineError)) options.onInternalError?.(channel, error);
      return failure(error);
    }
  };
}

function failure(error: unknown): Reply<never> {
  return { ok: false, error: serializeError(error) };
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 100)) : typeof value;
}
