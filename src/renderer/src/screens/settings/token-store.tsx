import { KeyRound, ShieldAlert } from 'lucide-react';
import { useAppQuery } from '@renderer/queries/hooks';
import { serverQueries } from '@renderer/queries/servers';

/** Which token store main uses, and whether it protects tokens well. */
export function TokenStoreNote(): React.JSX.Element | null {
  const store = useAppQuery(serverQueries.tokenStore);
  if (!store.data) return null;
  const Icon = store.data.secure ? KeyRound : ShieldAlert;
  return (
    <p className="token-store" data-testid="token-store">
      <Icon
        size={14}
        aria-hidden="true"
        className={store.data.secure ? 'tone-success' : 'tone-attention'}
      />
      <span>
        <strong>
          Tokens are kept in {store.data.kind === 'keyring' ? 'the keyring' : 'a file'}.
        </strong>{' '}
        <span className="muted">{store.data.description}</span>
      </span>
    </p>
  );
}
