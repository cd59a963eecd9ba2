/**
 * "Sign and upload" on the notification of a step that waits for a signature. The step is
 * signed on the server that showed the notification, whichever the app works with now
 * (the work request number means another work request, or none, on another server), with
 * the key debsign would use, and only an upload the user made from this machine, as made.
 * Nobody waits for the button, so the answer is a notification: signed; or the key is the
 * user's to choose, and its click opens the step's page, which asks; or the upload needs
 * reading first, and the step's page opens at once; or why it could not be done.
 */
import type { SigningResult } from '../../shared/contract';
import {
  chooseKeyNotification,
  reviewNotification,
  signedNotification,
} from '../notify/signing-notification';
import type { DesktopNotification } from '../notify/notifier';
import type { Destination } from './navigation';

export interface SignFromNotificationDeps {
  /** Signs on a server profile; without it, the button opens the step's page. */
  sign: ((profileId: string, id: number) => Promise<SigningResult>) | undefined;
  show: (notification: DesktopNotification, onClick: () => void) => void;
  navigate: (destination: Destination) => void;
  failed: (error: unknown) => void;
}

export async function signFromNotification(
  id: number,
  profileId: string,
  deps: SignFromNotificationDeps,
): Promise<void> {
  const open = (): void => {
    deps.navigate({ target: { kind: 'work-request', id }, server: { profileId } });
  };
  if (!deps.sign) {
    open();
    return;
  }
  try {
    const result = await deps.sign(profileId, id);
    if (result.status === 'review') {
      // Not the user's own upload as made: only the page, which shows it, may sign it.
      deps.show(reviewNotification(id, result.review.summary), open);
      open();
      return;
    }
    deps.show(
      result.status === 'signed'
        ? signedNotification(id, result.signedArtifactId, result.key, result.keyReason)
        : chooseKeyNotification(id, result.reason),
      open,
    );
  } catch (error) {
    deps.failed(error);
  }
}
