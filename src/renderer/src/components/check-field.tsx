/**
 * A checkbox inside its label, so that the words are part of what is clicked. The option lists
 * and filter bars of several screens are made of these; `onCheckedChange` gets the new state,
 * and every other prop (class, title, data-*) goes to the label.
 */
export function CheckField({
  checked,
  disabled,
  onCheckedChange,
  children,
  ...label
}: {
  checked: boolean;
  disabled?: boolean | undefined;
  onCheckedChange: (checked: boolean) => void;
  children: React.ReactNode;
} & Omit<React.LabelHTMLAttributes<HTMLLabelElement>, 'onChange'>): React.JSX.Element {
  return (
    <label {...label}>
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => {
          onCheckedChange(event.target.checked);
        }}
      />
      {children}
    </label>
  );
}
