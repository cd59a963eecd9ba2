/**
 * What the "Sign and upload" button of a waiting step's notification answers with, since
 * nobody else waits for it: the step is signed and complete, with which key and why (the
 * reason the step's page shows), or the key to sign with is the user's to choose (on the
 * step's page, which a click opens), and why.
 */
import type { SigningKey } from '../../shared/contract';
import type { DesktopNotification } from './notifier';

export function signedNotification(
  workRequestId: number,
  signedArtifactId: number,
  key: SigningKey,
  keyReason: string,
): DesktopNotification {
  const id = String(workRequestId);
  const who = key.userIds[0] ? ` (${key.userIds[0]})` : '';
  return {
    key: `signed-${id}`,
    title: `Signed: work request #${id} is complete`,
    body: `Uploaded as artifact #${String(signedArtifactId)}, signed with key ${key.keyId}${who}. ${keyReason}`,
    workRequestId,
    actions: [],
    urgency: 'normal',
  };
}

export function chooseKeyNotification(workRequestId: number, reason: string): DesktopNotification {
  const id = String(workRequestId);
  return {
    key: `choose-key-${id}`,
    title: `Choose the key to sign work request #${id}`,
    body: `${reason} Nothing was uploaded yet: click to choose on the step's page.`,
    workRequestId,
    actions: [],
    urgency: 'critical',
  };
}

/**
 * The one-click "Sign and upload" found an upload that is not the one the user made from
 * this machine (or not one it made at all): nothing is signed from a notification then, and
 * the step's page, which shows what differs, is opened.
 */
export function reviewNotification(workRequestId: number, summary: string): DesktopNotification {
  const id = String(workRequestId);
  return {
    key: `review-${id}`,
    title: `Read before signing work request #${id}`,
    body: `${summary} Nothing was signed: the step's page shows what would be.`,
    workRequestId,
    actions: [],
    urgency: 'critical',
  };
}
