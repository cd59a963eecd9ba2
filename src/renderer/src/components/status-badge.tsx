import {
  Ban,
  CircleCheck,
  CircleDashed,
  CircleDot,
  CircleSlash,
  CircleX,
  Clock,
  Hourglass,
  LoaderCircle,
  TriangleAlert,
  type LucideIcon,
} from 'lucide-react';
import { ABORTED } from '@shared/results/end';

interface Look {
  label: string;
  icon: LucideIcon;
  tone: 'success' | 'danger' | 'attention' | 'muted' | 'accent';
}

/** A completed work request is described by its result; others by their status. */
function lookFor(status: string, result: string): Look {
  if (status === 'completed') {
    switch (result) {
      case 'success':
        return { label: 'Success', icon: CircleCheck, tone: 'success' };
      case 'failure':
        return { label: 'Failure', icon: CircleX, tone: 'danger' };
      case 'error':
        return { label: 'Error', icon: TriangleAlert, tone: 'danger' };
      case 'skipped':
        return { label: 'Skipped', icon: CircleSlash, tone: 'muted' };
      case 'temporary failure':
        return { label: 'Temporary failure', icon: TriangleAlert, tone: 'attention' };
      // An early warning's: the build still runs, and cannot succeed any more.
      case 'failing':
        return { label: 'Failing', icon: CircleX, tone: 'danger' };
      default:
        return { label: result || 'Completed', icon: CircleDot, tone: 'muted' };
    }
  }
  switch (status) {
    case 'pending':
      return { label: 'Pending', icon: Clock, tone: 'muted' };
    case 'running':
      return { label: 'Running', icon: LoaderCircle, tone: 'accent' };
    case 'blocked':
      return { label: 'Blocked', icon: Hourglass, tone: 'attention' };
    case 'aborted':
      return { label: 'Aborted', icon: Ban, tone: 'muted' };
    default:
      return { label: status, icon: CircleDashed, tone: 'muted' };
  }
}

/** Status as an icon, a word and a colour: never colour alone. */
export function StatusBadge(props: { status: string; result: string }): React.JSX.Element {
  const look = lookFor(props.status, props.result);
  const Icon = look.icon;
  return (
    <span className={`status-badge tone-${look.tone}`}>
      <Icon size={14} aria-hidden="true" className={props.status === 'running' ? 'spin' : ''} />
      <span>{look.label}</span>
    </span>
  );
}

/**
 * How a work request ended, as one word (shared/results/end.ts: its result, or `aborted`),
 * in the look of that end; any other word (`needs input`) as itself.
 */
export function EndBadge(props: { end: string }): React.JSX.Element {
  return props.end === ABORTED ? (
    <StatusBadge status="aborted" result="" />
  ) : (
    <StatusBadge status="completed" result={props.end} />
  );
}
