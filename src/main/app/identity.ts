/**
 * The names the system knows the app by, which must agree with its packaging
 * (electron-builder.yml, package.json; test/unit/electron-packaging.test.ts checks them).
 */

/** electron-builder.yml's appId; Windows shows notifications only for an app with one. */
export const APP_ID = 'org.debusine.desktop';

/** package.json's desktopName: the .desktop entry's file name, and the windows' class. */
export const DESKTOP_ENTRY = 'debusine-desktop.desktop';
