import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal on the native <dialog> element, shown while `open`: focus is trapped and restored
 * by the browser, Escape calls `onCancel`.
 */
export function ModalDialog(props: {
  open: boolean;
  className: string;
  /** The id of the element that names the dialog. */
  labelledBy: string;
  onCancel: () => void;
  children: ReactNode;
}): React.JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      className={props.className}
      aria-labelledby={props.labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      {props.children}
    </dialog>
  );
}
