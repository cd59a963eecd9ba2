/**
 * A button that starts a mutation with one input. It is disabled while that mutation runs, so
 * that a second click cannot send the request again; `disabled` adds the caller's own reasons.
 * Every other prop (class, title, aria-*) goes to the button.
 */
export function MutateButton<T>({
  mutation,
  input,
  disabled = false,
  children,
  ...button
}: {
  mutation: { isPending: boolean; mutate: (input: T) => void };
  input: NoInfer<T>;
  disabled?: boolean | undefined;
  children: React.ReactNode;
} & Omit<
  React.ButtonHTMLAttributes<HTMLButtonElement>,
  'type' | 'disabled' | 'onClick'
>): React.JSX.Element {
  return (
    <button
      type="button"
      {...button}
      disabled={disabled || mutation.isPending}
      onClick={() => {
        mutation.mutate(input);
      }}
    >
      {children}
    </button>
  );
}
