import type { LucideIcon } from 'lucide-react';

/** An on/off icon button of the viewer's bars: its label is its accessible name and tip. */
export function ToggleButton(props: {
  label: string;
  icon: LucideIcon;
  on: boolean;
  onToggle: () => void;
}): React.JSX.Element {
  const Icon = props.icon;
  return (
    <button
      type="button"
      className="button small icon-only"
      aria-label={props.label}
      aria-pressed={props.on}
      title={props.label}
      onClick={props.onToggle}
    >
      <Icon size={14} aria-hidden="true" />
    </button>
  );
}
