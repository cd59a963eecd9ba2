import { contextBridge } from 'electron';

// The typed bridge (one method per contract entry) replaces this in the bridge issue; until
// then the renderer only learns which transport it runs on.
contextBridge.exposeInMainWorld('debusine', { transport: 'electron' });
