/**
 * The preload (sandboxed, context-isolated): exposes `window.printStation`, the same
 * AgentClient contract the web bridge implements, so the renderer runs unchanged in
 * Electron and in a browser.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createAgentClient } from './agent-client';

contextBridge.exposeInMainWorld('printStation', createAgentClient(ipcRenderer));
