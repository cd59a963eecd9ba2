import type { EventMessage } from '../../src/main/bridge/event-outbox';
import type { AppService } from '../../src/main/composition-root';
import type { EventPayload } from '../../src/shared/contract';

/**
 * The places main asked the window to show (`app.navigate` payloads). Each names the server
 * it is on: where that is `server` (the profile main made active), the name is left out, so
 * that a comparison with bare targets fails on any other. So is the server main says it
 * switched to (`switchedTo`) where it is that one; the switch's own tests check it.
 */
export function targetsOn(payloads: readonly unknown[], server: string | null): unknown[] {
  return payloads.map((payload) => {
    const { server: named, switchedTo, ...target } = payload as EventPayload<'app.navigate'>;
    const switched =
      switchedTo === undefined || switchedTo.profileId === server ? {} : { switchedTo };
    return named === server
      ? { ...target, ...switched }
      : { ...target, server: named, ...switched };
  });
}

/**
 * What a running service asked the window to show, from the events it sent: each named
 * as `targetsOn` names it, against the profile active now (the one main switched to).
 */
export function navigationsOf(r: {
  events: readonly EventMessage[];
  service: Pick<AppService, 'session'>;
}): unknown[] {
  return targetsOn(
    r.events.filter((m) => m.event === 'app.navigate').map((m) => m.payload),
    r.service.session.active()?.id ?? null,
  );
}
