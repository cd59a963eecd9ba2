import type { EventPayload } from '../../src/shared/contract';

/**
 * The places main asked the window to show (`app.navigate` payloads). Each names the server
 * it is on: where that is `server` (the profile main made active), the name is left out, so
 * that a comparison with bare targets fails on any other.
 */
export function targetsOn(payloads: readonly unknown[], server: string | null): unknown[] {
  return payloads.map((payload) => {
    const { server: named, ...target } = payload as EventPayload<'app.navigate'>;
    return named === server ? target : { ...target, server: named };
  });
}
