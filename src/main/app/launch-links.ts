/**
 * Links handed to the app by the system: on its command line at launch, by a later launch
 * (`second-instance`, with that launch's command line), or by macOS (`open-url`). They can
 * arrive before the app can show anything: Electron emits them as soon as it can, and an
 * event with no listener yet is lost. So main listens from its first line, and what comes
 * before the service has started waits here, in order, until `attach` hands it over.
 */
import type { Destination } from '../service/navigation';
import { deepLinkFromArgv, readDeepLink } from '../service/deep-links';

export interface LinkDelivery {
  /** Shows the destination (the service makes its server active and raises the window). */
  open(destination: Destination): void;
  /** Tells the user a link led nowhere, and why. */
  refuse(reason: string): void;
  /** Raises the window (another launch with no link asks for just that). */
  show(): void;
}

type Arrival =
  | { kind: 'open'; destination: Destination }
  | { kind: 'refuse'; reason: string }
  | { kind: 'show' };

/** More than anyone clicks while the app starts: a flood of launches keeps the last ones. */
const MAX_WAITING = 100;

export class LaunchLinks {
  #waiting: Arrival[] = [];
  #delivery: LinkDelivery | null = null;

  /** A command line: the first link on it, and the reasons others lead nowhere. */
  fromArgv(argv: readonly string[], raise: boolean): void {
    if (raise) this.#arrive({ kind: 'show' });
    const destination = deepLinkFromArgv(argv, (reason) => {
      this.#arrive({ kind: 'refuse', reason });
    });
    if (destination !== null) this.#arrive({ kind: 'open', destination });
  }

  /** One link (macOS `open-url`). */
  fromUrl(url: string): void {
    const reading = readDeepLink(url);
    this.#arrive(
      reading.ok
        ? { kind: 'open', destination: reading.destination }
        : { kind: 'refuse', reason: reading.reason },
    );
  }

  /** From now on links go to `delivery`; those that waited go first. */
  attach(delivery: LinkDelivery): void {
    this.#delivery = delivery;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const arrival of waiting) this.#deliver(arrival);
  }

  #arrive(arrival: Arrival): void {
    if (this.#delivery !== null) {
      this.#deliver(arrival);
      return;
    }
    this.#waiting.push(arrival);
    if (this.#waiting.length > MAX_WAITING) this.#waiting.shift();
  }

  #deliver(arrival: Arrival): void {
    const delivery = this.#delivery;
    if (delivery === null) return;
    if (arrival.kind === 'open') delivery.open(arrival.destination);
    else if (arrival.kind === 'refuse') delivery.refuse(arrival.reason);
    else delivery.show();
  }
}
