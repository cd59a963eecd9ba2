import { resolve } from 'node:path';

/**
 * The renderer's import aliases, for the electron-vite build and for vitest; tsconfig.web.json
 * names the same two in `paths`, for the type checker and ESLint. Code outside its own folder
 * imports through them, so an import says which layer it reaches (and lint can check it).
 */
export const rendererAliases = {
  '@renderer': resolve(import.meta.dirname, 'src/renderer/src'),
  '@shared': resolve(import.meta.dirname, 'src/shared'),
};
