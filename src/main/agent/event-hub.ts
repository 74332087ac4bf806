import type { AgentEvent } from '../../shared/agent-api';

export type AgentEventListener = (event: AgentEvent) => void;

/**
 * Fan-out of agent events to the UI (IPC, the web bridge's SSE) and the tray. A listener
 * that throws is isolated so one broken subscriber cannot stop the others.
 */
export class EventHub {
  private readonly listeners = new Set<AgentEventListener>();

  subscribe = (listener: AgentEventListener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  emit(event: AgentEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A subscriber's bug must not break printing.
      }
    }
  }
}
