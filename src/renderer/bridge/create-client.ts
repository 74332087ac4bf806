import type { AgentClient } from '../../shared/agent-api';
import { createHttpAgentClient } from './http-client';
import { takeBridgeToken } from './token';

/** The preload's client in Electron, the loopback web bridge in a browser. */
export function createAgentClient(): AgentClient {
  if (window.printStation) return window.printStation;
  return createHttpAgentClient({ token: takeBridgeToken() });
}
