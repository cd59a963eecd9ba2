import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { rendererAliases } from './aliases.config';
import { devInlineScriptHashes } from './dev-csp.config';

// Three builds: main (the Electron entry and the web host entry share one bundle graph),
// preload (CommonJS, since a sandboxed preload cannot be an ES module), and the renderer.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/app/main.ts'),
          web: resolve(import.meta.dirname, 'src/main/web/main.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    resolve: { alias: rendererAliases },
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'src/renderer/index.html') } },
    },
    plugins: [react(), devInlineScriptHashes()],
  },
});
