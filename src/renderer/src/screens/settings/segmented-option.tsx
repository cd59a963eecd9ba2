import type { LucideIcon } from 'lucide-react';

/**
 * One choice of a segmented radio group (the theme, the way to sign in): a radio inside its
 * label with an icon, so that the whole segment is what is clicked.
 */
export function SegmentedOption(props: {
  name: string;
  /** The radio's form value, for a group that has one. */
  value?: string;
  checked: boolean;
  icon: LucideIcon;
  label: string;
  onSelect: () => void;
}): React.JSX.Element {
  const Icon = props.icon;
  return (
    <label className="segmented-option">
      <input
        type="radio"
        name={props.name}
        value={props.value}
        checked={props.checked}
        onChange={props.onSelect}
      />
      <Icon size={14} aria-hidden="true" />
      <span>{props.label}</span>
    </label>
  );
}
