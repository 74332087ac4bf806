/**
 * The settings operations: the settings themselves, the service connection (test it, or
 * switch to the demo), the carriers routing rules choose from, and the web UI's address.
 */
import type { AgentInput, CarrierChoice } from '../../../shared/agent-api';
import { AGENT_ERROR_CODES } from '../../../shared/agent-error-codes';
import { plainMessage } from '../../../shared/agent-messages';
import type { AgentStatus, SettingsView } from '../../../shared/domain';
import { CodedError } from '../../errors';
import { parseStationRules } from '../../intake/station-rules';
import { createSettingsOperations } from '../../settings/settings-operations';
import type { ConnectionCheck } from '../connection-check';
import type { OperationDeps } from './deps';
import type { OperationGroup } from './groups';

type SettingsDeps = Pick<
  OperationDeps,
  | 'settings'
  | 'apiKeys'
  | 'connection'
  | 'session'
  | 'status'
  | 'emitStatus'
  | 'onIntakeChanged'
  | 'site'
  | 'carriers'
  | 'uiAddress'
  | 'log'
>;

export function settingsOperations(deps: SettingsDeps, checkConnection: ConnectionCheck): OperationGroup<'settings'> {
  const { settings, apiKeys, connection, session, log } = deps;
  const stored = createSettingsOperations({ settings, apiKeys });

  /**
   * The stored key is only ever sent to the address it was entered for: a new address (a
   * typo, or someone holding the UI token) gets the key only when it is typed in again.
   */
  const refuseKeyToNewAddress = (apiUrl: string | undefined, apiKey: string | undefined, current: string): void => {
    if (apiUrl !== undefined && apiUrl !== current && apiKey === undefined && apiKeys.isSet()) {
      throw new CodedError(
        AGENT_ERROR_CODES.API_KEY_REQUIRED,
        'Enter the API key again for the new service address: the stored key is only sent to the address it was entered for.',
      );
    }
  };

  /** Tells the UI when its address will not last (SettingsView.uiAddressLasts). */
  const withUiAddress = (view: SettingsView): SettingsView => (deps.uiAddress?.lasts === false ? { ...view, uiAddressLasts: false } : view);

  return {
    async getSettings(_input: AgentInput<'getSettings'>): Promise<SettingsView> {
      return withUiAddress(stored.getSettings());
    },

    async saveSettings(input: AgentInput<'saveSettings'>): Promise<SettingsView> {
      // A bad /regex/ is refused here, with the field named, not discovered at the next
      // booking (printer URIs are checked where every settings write goes: mergeSettings).
      if (input.stationRules) parseStationRules(input.stationRules);
      const before = settings.get();
      refuseKeyToNewAddress(input.apiUrl, input.apiKey, before.apiUrl);
      const view = stored.saveSettings(input);
      const after = settings.get();
      const connectionChanged = input.apiKey !== undefined || input.apiUrl !== undefined;
      // Connecting a real account ends a demo started from the first-run screen.
      if (connectionChanged && session.active) await session.stop();
      if (!session.active && connection.reconfigure(after.apiUrl, apiKeys.read())) {
        await checkConnection(false);
        if (connectionChanged) await deps.onIntakeChanged();
      } else if (JSON.stringify(before.intake) !== JSON.stringify(after.intake)) await deps.onIntakeChanged();
      // In a site the station's rules are the site's routing rules for it: written there at once.
      if (JSON.stringify(before.stationRules) !== JSON.stringify(after.stationRules)) await deps.site?.rulesChanged?.();
      deps.emitStatus();
      return withUiAddress(view);
    },

    async testConnection(input: AgentInput<'testConnection'>): Promise<{ team: string; status: string }> {
      refuseKeyToNewAddress(input.apiUrl, input.apiKey, connection.url);
      const apiKey = input.apiKey ?? apiKeys.read();
      if (!apiKey) throw new CodedError(AGENT_ERROR_CODES.NOT_CONNECTED, plainMessage('agent.enterKeyToTest'));
      const probe = connection.probe(input.apiUrl ?? connection.url, apiKey);
      try {
        const answer = await probe.status();
        return { team: answer.team, status: answer.status };
      } finally {
        await probe.close();
      }
    },

    async startDemo(_input: AgentInput<'startDemo'>): Promise<AgentStatus> {
      const { apiUrl, apiKey } = await session.start();
      log.redact(apiKey);
      connection.reconfigure(apiUrl, apiKey);
      await checkConnection(false);
      await deps.onIntakeChanged();
      return deps.status.snapshot();
    },

    async listCarriers(_input: AgentInput<'listCarriers'>): Promise<CarrierChoice[]> {
      const { carriers } = deps;
      if (!carriers) return [];
      // Not read yet (the agent started without a key, or the service was down): one more try.
      if (carriers.list().length === 0 && connection.configured) await carriers.refresh();
      return [...carriers.list()];
    },

    async rotateUiAddress(_input: AgentInput<'rotateUiAddress'>): Promise<{ url: string }> {
      const control = deps.uiAddress;
      if (!control) {
        throw new CodedError(
          AGENT_ERROR_CODES.UI_ADDRESS_UNAVAILABLE,
          'This agent serves no web UI, so it has no address to renew (start it with --ui-port N).',
        );
      }
      const url = control.rotate();
      log.info('ui: the web UI has a new address (older bookmarks and open tabs need it); npm run agent -- ui-address prints it');
      return { url };
    },
  };
}
