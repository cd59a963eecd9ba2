/**
 * The confirmation and the review dialog share one frame; each still writes the markup it
 * wrote on its own: the dialog named by its title, the body, then "cancel" before the button
 * that goes ahead.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog } from '@renderer/components/confirm-dialog';
import { ReviewDialog } from '@renderer/kit/review-dialog';

const nothing = (): void => undefined;

describe('the dialogs that ask for a choice', () => {
  it('writes the confirmation: title, body, Cancel, then the danger button', () => {
    const html = renderToStaticMarkup(
      <ConfirmDialog
        open
        title="Remove A?"
        confirmLabel="Remove"
        danger
        onConfirm={nothing}
        onCancel={nothing}
      >
        It goes.
      </ConfirmDialog>,
    );
    expect(html).toBe(
      '<dialog class="dialog" aria-labelledby="confirm-dialog-title">' +
        '<h2 id="confirm-dialog-title">Remove A?</h2>' +
        '<div class="dialog-body">It goes.</div>' +
        '<div class="dialog-actions">' +
        '<button type="button" class="button">Cancel</button>' +
        '<button type="button" class="button danger">Remove</button>' +
        '</div></dialog>',
    );
  });

  it('writes the review: title, Keep editing, then the save button as it saves', () => {
    const html = renderToStaticMarkup(
      <ReviewDialog
        open={false}
        title="Review changes"
        before="a"
        after="b"
        saving
        onConfirm={nothing}
        onCancel={nothing}
      />,
    );
    expect(html).toMatch(
      /^<dialog class="dialog review-dialog" aria-labelledby="review-dialog-title"><h2 id="review-dialog-title">Review changes<\/h2><div class="dialog-actions"><button type="button" class="button">Keep editing<\/button><button type="button" class="button primary" disabled="" autofocus=""><svg [^>]*class="lucide lucide-save" aria-hidden="true">(<path [^>]*><\/path>)+<\/svg>Saving…<\/button><\/div><\/dialog>$/,
    );
  });
});
