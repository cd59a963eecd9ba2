import type { DebusineApi } from '../shared/contract';

declare global {
  interface Window {
    /** Exposed by the preload in Electron; absent in a browser (the web host). */
    debusine?: DebusineApi;
  }
}
