/** One name a picker offers: its value, and the words the list shows for it. */
export interface NameOption {
  value: string;
  label: string;
}

/**
 * A name to choose (a template's, a collection's): from `options` when the server lists
 * them, typed in an input when it does not (`options` null). `typed` gives the input what
 * helps to type it: a placeholder, the id of a hint.
 */
export function NamePicker(props: {
  id: string;
  value: string;
  onChange: (name: string) => void;
  options: readonly NameOption[] | null;
  typed?: { placeholder?: string; 'aria-describedby'?: string };
}): React.JSX.Element {
  const field = {
    id: props.id,
    value: props.value,
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      props.onChange(event.target.value);
    },
  };
  if (props.options === null) return <input className="input mono" {...props.typed} {...field} />;
  return (
    <select className="select mono" {...field}>
      {props.options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
