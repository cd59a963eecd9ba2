import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** What a screen shows when it has nothing yet, and what the user can do about it. */
export function EmptyState(props: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}): React.JSX.Element {
  const Icon = props.icon;
  return (
    <section className="empty-state" aria-label={props.title}>
      <Icon size={32} aria-hidden="true" className="empty-state-icon" />
      <h2>{props.title}</h2>
      {props.children ? <div className="empty-state-body">{props.children}</div> : null}
      {props.action ? <div className="empty-state-action">{props.action}</div> : null}
    </section>
  );
}
