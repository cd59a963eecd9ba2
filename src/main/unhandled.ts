/**
 * A promise rejected with nobody to tell is a bug. It should not take down the app (or the
 * web host, and every open window with it): it is logged, with a marker the tests look for.
 */
export const UNHANDLED_REJECTION = 'Unhandled rejection (a bug in Debusine Desktop):';

export function logUnhandledRejections(): void {
  process.on('unhandledRejection', (reason) => {
    console.error(UNHANDLED_REJECTION, reason);
  });
}
