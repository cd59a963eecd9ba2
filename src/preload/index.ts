import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { buildApi } from './api';

contextBridge.exposeInMainWorld('debusine', buildApi(ipcRenderer, webUtils));
