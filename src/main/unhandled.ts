/**
 * A promise rejected with nobody to tell is a bug. It should not take down the app (or the
 * web host, and every open window with it): it is logged, with a marker the tests look for.
 */
export const UNHANDLED_REJECTION = 'Unhandled rejection (a bug in Debusine Desktop):';

/** Marks the process once it logs them: the entry may be loaded again (each test launch). */
const INSTALLED = Symbol.for('debusine-desktop.unhandled-rejections');

export function logUnhandledRejections(): void {
  const marked = process as NodeJS.Process & { [INSTALLED]?: true };
  if (marked[INSTALLED]) return;
  marked[INSTALLED] = true;
  process.on('unhandledRejection', (reason) => {
    console.error(UNHANDLED_REJECTION, reason);
  });
}
