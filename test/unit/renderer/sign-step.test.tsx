// @vitest-environment happy-dom
/**
 * The signing step's page: it names the key debsign would use (its user id, its
 * fingerprint, and why that one), as main chose it on the page's server; "Sign and upload"
 * signs with that key and no other (main is told which it was); where main's choice names
 * no key, the page says why and offers to sign only with a key the user picks; when main
 * answers that the key is the user's to choose, only a listed key can be sent; a refused
 * completion names the artifact made; without debsign, the CLI's command instead.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type {
  SigningKey,
  SigningKeyChoice,
  SigningResult,
  WorkRequestResponse,
} from '@shared/contract';
import { DebusineError } from '@shared/errors';
import { BridgeProvider } from '@renderer/bridge';
import { WaitingStep } from '@renderer/screens/work-requests/waiting';
import { fakeBridge, type FakeHandlers } from './support/fake-bridge';
import { SERVER_A } from './support/server-a';
import { workRequestFixture } from '../../support/work-requests';
import { reviewFixture } from './support/signing-review';

const MINE: SigningKey = {
  fingerprint: 'A260D2A9F365017140BDDDD2CAEBED84A203F49A',
  keyId: 'CAEBED84A203F49A',
  userIds: ['Me <me@example.org>'],
};
const WORK: SigningKey = {
  fingerprint: 'BCC7A5AFE1DFF810F1E049234C9ADD83540650B6',
  keyId: '4C9ADD83540650B6',
  userIds: ['Me at work <me@work.example>'],
};

const BY_CHANGED_BY: SigningKeyChoice = {
  review: reviewFixture(),
  named: [MINE],
  keys: [MINE, WORK],
  reason:
    "It is your secret key for “me@example.org”: the .changes' Changed-By (its uploader) is " +
    '“Me <me@example.org>”, and DEBSIGN_KEYID is not set.',
};

const NONE_FOR_CHANGED_BY: SigningKeyChoice = {
  review: reviewFixture(),
  named: [],
  keys: [MINE, WORK],
  reason:
    "None of your secret keys is for “else@example.org”: the .changes' Changed-By (its " +
    'uploader) is “Someone Else <else@example.org>”, and DEBSIGN_KEYID is not set, so debsign ' +
    'would stop there (gpg: No secret key). Choose the key to sign with, or name yours in ' +
    'DEBSIGN_KEYID (~/.devscripts).',
};

const step: WorkRequestResponse = workRequestFixture(41, {
  created_at: '2026-11-21T12:00:00Z',
  started_at: '2026-11-21T12:00:01Z',
  completed_at: null,
  status: 'running',
  result: '',
  task_type: 'Wait',
  task_name: 'externaldebsign',
  task_data: { unsigned: 500 },
});

/** Main's answer: signed with `key`, uploaded as `artifactId`, the step completed. */
function signedWith(key: SigningKey, artifactId: number, keyReason: string): SigningResult {
  return {
    status: 'signed',
    workRequest: { ...step, status: 'completed', result: 'success' },
    signedArtifactId: artifactId,
    key,
    keyReason,
  };
}

function renderWith(handlers: FakeHandlers) {
  const fake = fakeBridge({
    'servers.active': () => SERVER_A,
    'signing.available': () => ({ available: true, debsign: true, gpg: true, message: null }),
    'signing.keyChoice': () => BY_CHANGED_BY,
    ...handlers,
  });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const tree = (wr: WorkRequestResponse) => (
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={fake.client}>
        <WaitingStep wr={wr} />
      </BridgeProvider>
    </QueryClientProvider>
  );
  const { rerender } = render(tree(step));
  return Object.assign(fake, {
    /** The page shows the step as the server now has it. */
    show: (wr: WorkRequestResponse) => {
      rerender(tree(wr));
    },
  });
}

const keyChoiceCalls = (fake: { calls: { channel: string; args: unknown }[] }) =>
  fake.calls.filter((c) => c.channel === 'signing.keyChoice').map((c) => c.args);

const signCalls = (fake: { calls: { channel: string; args: unknown }[] }) =>
  fake.calls.filter((c) => c.channel === 'signing.signAndComplete').map((c) => c.args);

afterEach(cleanup);

describe('the signing step', () => {
  it('names the key debsign would use, its fingerprint and why, and signs with that one', async () => {
    const fake = renderWith({
      'signing.signAndComplete': () => signedWith(MINE, 901, BY_CHANGED_BY.reason),
    });
    const key = await screen.findByTestId('debsign-key');
    expect(within(key).getByText('Me <me@example.org>')).toBeTruthy();
    expect(within(key).getByText('A260 D2A9 F365 0171 40BD DDD2 CAEB ED84 A203 F49A')).toBeTruthy();
    expect(within(key).getByText(BY_CHANGED_BY.reason)).toBeTruthy();
    // Asked of the server the page shows.
    expect(keyChoiceCalls(fake)).toEqual([{ workRequestId: 41, serverId: SERVER_A.id }]);
    const button = screen.getByRole('button', { name: 'Sign and upload' });
    await waitForEnabled(button);
    fireEvent.click(button);
    expect(await screen.findByText(/uploaded and the step completed/)).toBeTruthy();
    expect(signCalls(fake)).toEqual([
      {
        workRequestId: 41,
        serverId: SERVER_A.id,
        reviewed: 'd'.repeat(64),
        expected: MINE.fingerprint,
      },
    ]);
    expect(screen.getByRole('status').textContent).toContain(
      'A260 D2A9 F365 0171 40BD DDD2 CAEB ED84 A203 F49A',
    );
    // Once the page has the step completed, what signed and why stay.
    fake.show({ ...step, status: 'completed', result: 'success' });
    expect(screen.queryByTestId('debsign-key')).toBeNull();
    expect(screen.getByText(BY_CHANGED_BY.reason)).toBeTruthy();
  });

  it('says the upload is the one made here, and signs that review only', async () => {
    const fake = renderWith({
      'signing.signAndComplete': () => signedWith(MINE, 901, BY_CHANGED_BY.reason),
    });
    const review = await screen.findByTestId('upload-review');
    expect(review.dataset.verdict).toBe('same');
    expect(review.textContent).toContain(
      'This is the upload you made from this machine on 2026-11-20 10:00 UTC (artifact 300).',
    );
    // The artifact that is signed is the one shown.
    expect(within(review).getByRole('button', { name: /500/ })).toBeTruthy();
    const files = within(review).getByRole('table', { name: 'Files of the upload to sign' });
    expect(within(files).getAllByText('Same as yours')).toHaveLength(2);
    // The exact .changes, to read before signing.
    expect(within(review).getByText(/Read the .changes that would be signed/)).toBeTruthy();
    expect(review.querySelector('pre')?.textContent).toBe(
      'Format: 1.8\nSource: hello\nVersion: 2.10-4\n',
    );
    // Nothing to confirm: it is the user's own upload.
    expect(within(review).queryByTestId('review-confirm')).toBeNull();
    const button = screen.getByRole('button', { name: 'Sign and upload' });
    await waitForEnabled(button);
    fireEvent.click(button);
    expect(await screen.findByText(/uploaded and the step completed/)).toBeTruthy();
    expect(signCalls(fake)).toEqual([
      {
        workRequestId: 41,
        serverId: SERVER_A.id,
        reviewed: 'd'.repeat(64),
        expected: MINE.fingerprint,
      },
    ]);
  });

  it('shows what differs, field by field and file by file, and signs only once confirmed', async () => {
    const differs = reviewFixture('differs', 'e'.repeat(64));
    const fake = renderWith({
      'signing.keyChoice': () => ({ ...BY_CHANGED_BY, review: differs }),
      'signing.signAndComplete': () => signedWith(MINE, 903, BY_CHANGED_BY.reason),
    });
    const review = await screen.findByTestId('upload-review');
    expect(review.dataset.verdict).toBe('differs');
    const list = within(review).getByRole('list', { name: 'What differs' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(differs.differences);
    const fields = within(review).getByRole('table', { name: 'Fields of the upload to sign' });
    const row = within(fields).getByRole('row', { name: /Distribution/ });
    expect(row.className).toBe('sign-review-differs');
    expect(row.textContent).toContain('bookworm-security');
    expect(row.textContent).toContain('unstable');
    const files = within(review).getByRole('table', { name: 'Files of the upload to sign' });
    expect(within(files).getByText('Different contents')).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Sign and upload' });
    await waitForEnabled(button, false);
    fireEvent.click(within(review).getByRole('checkbox'));
    await waitForEnabled(button);
    fireEvent.click(button);
    expect(await screen.findByText(/uploaded and the step completed/)).toBeTruthy();
    expect(signCalls(fake)).toEqual([
      {
        workRequestId: 41,
        serverId: SERVER_A.id,
        reviewed: 'e'.repeat(64),
        expected: MINE.fingerprint,
      },
    ]);
  });

  it("shows main's newer review when the upload changed since, and asks for a new confirmation", async () => {
    const first = reviewFixture('differs', 'e'.repeat(64));
    const newer = {
      ...reviewFixture('not-made-here', 'f'.repeat(64)),
      summary: 'This app did not upload hello 2.10-5 to this server.',
    };
    renderWith({
      'signing.keyChoice': () => ({ ...BY_CHANGED_BY, review: first }),
      'signing.signAndComplete': () => ({
        status: 'review',
        review: newer,
        reason: 'The upload to be signed is not the one you read.',
      }),
    });
    const review = await screen.findByTestId('upload-review');
    fireEvent.click(within(review).getByRole('checkbox'));
    const button = screen.getByRole('button', { name: 'Sign and upload' });
    await waitForEnabled(button);
    fireEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The upload to be signed is not the one you read.',
    );
    const shown = await screen.findByTestId('upload-review');
    expect(shown.dataset.verdict).toBe('not-made-here');
    expect(shown.textContent).toContain('This app did not upload hello 2.10-5 to this server.');
    // The tick was for the review read before: this one needs its own.
    expect((within(shown).getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
    await waitForEnabled(button, false);
  });

  it('says no key matches, and why, and signs only with a key the user picks', async () => {
    const fake = renderWith({
      'signing.keyChoice': () => NONE_FOR_CHANGED_BY,
      'signing.signAndComplete': () => signedWith(WORK, 902, "You chose it on the step's page."),
    });
    const key = await screen.findByTestId('debsign-key');
    expect(key.textContent).toContain('No key to sign with by default.');
    expect(key.textContent).toContain('“else@example.org”');
    expect(key.textContent).toContain("the .changes' Changed-By");
    const button = screen.getByRole('button', { name: 'Sign and upload' });
    await waitForEnabled(button, false);
    expect(screen.getByRole('option', { name: 'Choose a key…' })).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText('Key'), { target: { value: WORK.fingerprint } });
    await waitForEnabled(button);
    fireEvent.click(button);
    expect(await screen.findByText(/uploaded and the step completed/)).toBeTruthy();
    expect(signCalls(fake)).toEqual([
      { workRequestId: 41, serverId: SERVER_A.id, reviewed: 'd'.repeat(64), key: WORK.fingerprint },
    ]);
  });

  it('renders what main quotes from the server as text, never as markup', async () => {
    const hostile = '“<img src=x onerror=alert(1)>” <b>bold</b>';
    renderWith({
      'signing.keyChoice': () => ({ ...NONE_FOR_CHANGED_BY, reason: hostile }),
    });
    const key = await screen.findByTestId('debsign-key');
    expect(key.textContent).toContain(hostile);
    expect(key.querySelector('img')).toBeNull();
    expect(key.querySelector('b')).toBeNull();
  });

  it('when asked, sends only the key chosen among the listed ones', async () => {
    const answers: SigningResult[] = [
      {
        status: 'choose-key',
        keys: [MINE, WORK],
        reason:
          'DEBSIGN_KEYID in /home/me/.devscripts (line 1) is “WORK”, which names 2 of your secret keys: choose one.',
      },
      signedWith(WORK, 901, "You chose it on the step's page."),
    ];
    const fake = renderWith({
      'signing.signAndComplete': () => {
        const next = answers.shift();
        if (!next) throw new Error('asked too often');
        return next;
      },
    });
    const waiting = await screen.findByTestId('waiting-step');
    const button = await within(waiting).findByRole('button', { name: 'Sign and upload' });
    await screen.findByRole('option', { name: `${WORK.userIds[0] ?? ''} · ${WORK.keyId}` });
    // Until a key is picked: the one debsign would use, as the page shows it.
    await waitForEnabled(button);
    fireEvent.click(button);
    expect(await screen.findByText(/names 2 of your secret keys: choose one/)).toBeTruthy();
    expect(signCalls(fake)).toEqual([
      {
        workRequestId: 41,
        serverId: SERVER_A.id,
        reviewed: 'd'.repeat(64),
        expected: MINE.fingerprint,
      },
    ]);
    // Now a key must be chosen before the button sends anything.
    await waitForEnabled(button, false);
    fireEvent.change(screen.getByLabelText('Key'), { target: { value: WORK.fingerprint } });
    await waitForEnabled(button);
    fireEvent.click(button);
    expect(await screen.findByText(/uploaded and the step completed/)).toBeTruthy();
    expect(signCalls(fake)).toEqual([
      {
        workRequestId: 41,
        serverId: SERVER_A.id,
        reviewed: 'd'.repeat(64),
        expected: MINE.fingerprint,
      },
      { workRequestId: 41, serverId: SERVER_A.id, reviewed: 'd'.repeat(64), key: WORK.fingerprint },
    ]);
    expect(screen.getByRole('status').textContent).toContain('901');
    // The step is complete now: what was done stays shown, the means to do it go.
    fake.show({ ...step, status: 'completed', result: 'success' });
    expect(screen.getByRole('heading', { name: 'Signed' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('901');
    expect(screen.queryByRole('button', { name: 'Sign and upload' })).toBeNull();
  });

  it('shows nothing for a signing step that no longer waits, signed elsewhere', () => {
    renderWith({}).show({ ...step, status: 'completed', result: 'success' });
    expect(screen.queryByTestId('waiting-step')).toBeNull();
  });

  it('says why signing failed, with the artifact a refused completion left', async () => {
    renderWith({
      'signing.signAndComplete': () => {
        throw new DebusineError(
          'validation',
          'The server refused to complete work request 41 … artifact 903, which the step does not use.',
          { signedArtifactId: 903 },
        );
      },
    });
    const button = await screen.findByRole('button', { name: 'Sign and upload' });
    await waitForEnabled(button);
    fireEvent.click(button);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The server refused to complete work request 41');
    expect(within(alert).getByRole('button', { name: /903/ })).toBeTruthy();
  });

  it('offers the CLI command where debsign is missing', async () => {
    const fake = renderWith({
      'signing.available': () => ({
        available: false,
        debsign: false,
        gpg: true,
        message: 'Install debsign (package devscripts) to sign uploads here.',
      }),
    });
    expect(await screen.findByText(/Install debsign \(package devscripts\)/)).toBeTruthy();
    expect(screen.getByText('debusine work-request sign 41')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign and upload' })).toBeNull();
    expect(keyChoiceCalls(fake)).toEqual([]);
  });
});

async function waitForEnabled(button: HTMLElement, enabled = true): Promise<void> {
  const { waitFor } = await import('@testing-library/react');
  await waitFor(() => {
    expect((button as HTMLButtonElement).disabled).toBe(!enabled);
  });
}
