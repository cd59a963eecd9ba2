import { Check, Copy, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { copyText } from './clipboard';

type CopyState = { kind: 'idle' } | { kind: 'copied' } | { kind: 'failed'; message: string };

/** Copies a text (an id, a CLI command) and says whether it did. */
export function CopyButton(props: { text: string; label: string }): React.JSX.Element {
  const [state, setState] = useState<CopyState>({ kind: 'idle' });
  const Icon = state.kind === 'copied' ? Check : state.kind === 'failed' ? TriangleAlert : Copy;
  return (
    <>
      <button
        type="button"
        className="button"
        onClick={() => {
          copyText(props.text).then(
            () => {
              setState({ kind: 'copied' });
              setTimeout(() => {
                setState({ kind: 'idle' });
              }, 1500);
            },
            (error: unknown) => {
              setState({ kind: 'failed', message: (error as Error).message });
            },
          );
        }}
      >
        <Icon size={14} aria-hidden="true" />
        <span>{state.kind === 'copied' ? 'Copied' : props.label}</span>
      </button>
      {state.kind === 'failed' ? (
        <span role="alert" className="tone-attention">
          {state.message}
        </span>
      ) : null}
    </>
  );
}
