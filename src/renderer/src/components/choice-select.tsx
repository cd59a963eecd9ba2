/**
 * A select of fixed choices that hands back the chosen one with its own type: the options'
 * values are the choices, so what the select reports is one of them, found rather than cast.
 * Each option shows its entry in `labels`, or the choice itself.
 */
export function ChoiceSelect<T extends string>(props: {
  id: string;
  className: string;
  value: T;
  choices: readonly T[];
  labels?: Readonly<Record<T, string>>;
  onChange: (choice: T) => void;
}): React.JSX.Element {
  return (
    <select
      id={props.id}
      className={props.className}
      value={props.value}
      onChange={(event) => {
        const chosen = props.choices.find((choice) => choice === event.target.value);
        if (chosen !== undefined) props.onChange(chosen);
      }}
    >
      {props.choices.map((choice) => (
        <option key={choice} value={choice}>
          {props.labels?.[choice] ?? choice}
        </option>
      ))}
    </select>
  );
}
