import type { LucideIcon } from 'lucide-react';

/**
 * The choices of a segmented radio group (the theme, the way to sign in): each a radio inside
 * its label with an icon, so that the whole segment is what is clicked. `formValues` gives
 * each radio its id as its form value, for a group that is read as a form field.
 */
export function SegmentedOptions<T extends string>(props: {
  name: string;
  options: readonly { id: T; label: string; icon: LucideIcon }[];
  value: T;
  onChange: (value: T) => void;
  formValues?: boolean;
}): React.JSX.Element {
  return (
    <>
      {props.options.map((option) => {
        const Icon = option.icon;
        return (
          <label key={option.id} className="segmented-option">
            <input
              type="radio"
              name={props.name}
              value={props.formValues ? option.id : undefined}
              checked={props.value === option.id}
              onChange={() => {
                props.onChange(option.id);
              }}
            />
            <Icon size={14} aria-hidden="true" />
            <span>{option.label}</span>
          </label>
        );
      })}
    </>
  );
}
