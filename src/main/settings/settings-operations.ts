/**
 * getSettings / saveSettings for the AgentApi facade, shared by the app and the
 * headless agent. The API key goes in (write-only) and never comes back out: the view
 * only says whether one is set.
 */
import { agentInputs, type AgentInput } from '../../shared/agent-api';
import type { SettingsView } from '../../shared/domain';
import type { ApiKeyStore } from './api-key-store';
import { mergeSettings, type SettingsStore, type StoredSettings } from './settings-store';

export function toSettingsView(stored: StoredSettings, apiKeySet: boolean, apiKeySessionOnly = false): SettingsView {
  // Built field by field so the ciphertext (or anything added to the file later) cannot leak to a UI.
  return {
    ...(apiKeySessionOnly ? { apiKeySessionOnly: true } : {}),
    environment: stored.environment,
    apiUrl: stored.apiUrl,
    apiKeySet,
    routing: stored.routing,
    intake: stored.intake,
    stationRules: stored.stationRules,
    paused: stored.paused,
    scale: stored.scale ?? 'none',
  };
}

export interface SettingsOperations {
  getSettings(): SettingsView;
  /**
   * Validates the whole patch first, then stores the key, then the rest: an invalid field
   * saves nothing (not even the key).
   */
  saveSettings(input: AgentInput<'saveSettings'>): SettingsView;
}

export function createSettingsOperations(options: { readonly settings: SettingsStore; readonly apiKeys: ApiKeyStore }): SettingsOperations {
  const { settings, apiKeys } = options;
  const view = (stored: StoredSettings): SettingsView => toSettingsView(stored, apiKeys.isSet(), apiKeys.sessionOnly?.() ?? false);
  return {
    getSettings: () => view(settings.get()),
    saveSettings: (input) => {
      // Parsed again here so callers other than IPC/bridge get the same defaults and checks.
      const { apiKey, ...rest } = agentInputs.saveSettings.parse(input);
      mergeSettings(settings.get(), rest); // throws naming the field; nothing is saved yet
      if (apiKey !== undefined) apiKeys.write(apiKey);
      return view(settings.update(rest));
    },
  };
}
