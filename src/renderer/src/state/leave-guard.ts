import { useEffect, useId } from 'react';

/**
 * Unsaved-changes guard. An editor with unsaved work registers itself; navigating away (to
 * another area, another page, or closing the window) then asks first.
 */
const dirty = new Map<string, string>();

export function canLeave(): boolean {
  if (dirty.size === 0) return true;
  const message = [...dirty.values()][0] ?? 'You have unsaved changes.';
  // The native confirm is modal in Electron and in browsers alike, and blocks navigation
  // synchronously, which a React dialog could not do here.
  const leave = window.confirm(`${message}\n\nLeave and discard them?`);
  if (leave) dirty.clear();
  return leave;
}

export function useUnsavedChanges(isDirty: boolean, message = 'You have unsaved changes.'): void {
  const id = useId();
  useEffect(() => {
    if (isDirty) dirty.set(id, message);
    else dirty.delete(id);
    return () => {
      dirty.delete(id);
    };
  }, [id, isDirty, message]);
  useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent): void => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [isDirty]);
}
