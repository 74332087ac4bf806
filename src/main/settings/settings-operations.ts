/**
 * getSettings / saveSettings for the AgentApi facade, shared by the app and the
 * headless agent. The API key goes in (write-only) and never comes back out: the view
 * only says whether one is set.
 */
import { agentInputs, type AgentInput } from '../../shared/agent-api';
import type { SettingsView } from '../../shared/domain';
import type { ApiKeyStore } from './api-key-store';
import type { SettingsStore, StoredSettings } from './settings-store';

export function toSettingsView(stored: StoredSettings, apiKeySet: boolean): SettingsView {
  // Built field by field so the ciphertext (or anything added to the file later) cannot leak to a UI.
  return {
    environment: stored.environment,
    apiUrl: stored.apiUrl,
    apiKeySet,
    routing: stored.routing,
    intake: stored.intake,
    stationRules: stored.stationRules,
    paused: stored.paused,
  };
}

export interface SettingsOperations {
  getSettings(): SettingsView;
  /** Stores the key first: when it cannot be stored securely nothing else changes either. */
  saveSettings(input: AgentInput<'saveSettings'>): SettingsView;
}

export function createSettingsOperations(options: { readonly settings: SettingsStore; readonly apiKeys: ApiKeyStore }): SettingsOperations {
  const { settings, apiKeys } = options;
  return {
    getSettings: () => toSettingsView(settings.get(), apiKeys.isSet()),
    saveSettings: (input) => {
      // Parsed again here so callers other than IPC/bridge get the same defaults and checks.
      const { apiKey, ...rest } = agentInputs.saveSettings.parse(input);
      if (apiKey !== undefined) apiKeys.write(apiKey);
      const stored = settings.update(rest);
      return toSettingsView(stored, apiKeys.isSet());
    },
  };
}
