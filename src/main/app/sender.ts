/**
 * The one sender check every IPC handler goes through: only the top-level frame of one of
 * the app's own windows, showing the app's own page, may talk to main. An iframe, a
 * navigated-away page or another webContents gets a `forbidden` reply.
 */
export interface SenderFrameLike {
  readonly url: string;
  readonly parent: unknown;
}
export interface SenderEventLike {
  readonly sender: { readonly id: number };
  readonly senderFrame: SenderFrameLike | null;
}

export interface TrustPolicy {
  /** webContents ids of the app's windows. */
  windowIds: ReadonlySet<number>;
  /** Whether a URL is the app's own page (app://renderer/index.html, or the dev server). */
  isAppUrl(url: string): boolean;
}

export function isTrustedSender(event: SenderEventLike, policy: TrustPolicy): boolean {
  const frame = event.senderFrame;
  if (frame === null) return false;
  if (frame.parent !== null) return false;
  if (!policy.windowIds.has(event.sender.id)) return false;
  return policy.isAppUrl(frame.url);
}

/** The app's page: the built renderer's index.html (app-protocol.ts), or the dev server's origin. */
export function appUrlMatcher(rendererIndexUrl: string, devUrl?: string): (url: string) => boolean {
  const dev = devUrl ? new URL(devUrl).origin : null;
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (dev !== null && parsed.origin === dev) return true;
    parsed.hash = '';
    parsed.search = '';
    return parsed.href === rendererIndexUrl;
  };
}
