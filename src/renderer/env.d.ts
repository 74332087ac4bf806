import type { AgentClient } from '../shared/agent-api';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in a browser (the web bridge is used then). */
    readonly printStation?: AgentClient;
  }
}

export {};
