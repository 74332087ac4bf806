/** The diagnostics operations: the agent's status, and a bundle of what support needs (no secrets). */
import type { AgentApi, AgentInput, DiagnosticsSaved } from '../../../shared/agent-api';
import type { AgentStatus } from '../../../shared/domain';
import { saveAgentDiagnostics } from '../../diagnostics/agent-diagnostics';
import { createSettingsOperations } from '../../settings/settings-operations';
import type { OperationDeps } from './deps';
import type { OperationGroup } from './groups';

export function diagnosticsOperations(
  deps: Pick<OperationDeps, 'ledger' | 'connection' | 'status' | 'settings' | 'apiKeys' | 'log' | 'secrets'>,
  // The bundle holds the printers as the UI sees them, read through their own operation.
  printers: Pick<AgentApi, 'listPrinters'>,
): OperationGroup<'diagnostics'> {
  const { ledger, connection, status, apiKeys, log } = deps;
  // The settings as the UI sees them (no key), read as the bundle is written.
  const settingsView = createSettingsOperations({ settings: deps.settings, apiKeys });
  return {
    async getStatus(_input: AgentInput<'getStatus'>): Promise<AgentStatus> {
      return status.snapshot();
    },

    async saveDiagnostics(_input: AgentInput<'saveDiagnostics'>): Promise<DiagnosticsSaved> {
      const saved = await saveAgentDiagnostics({
        dataDir: ledger.dir,
        status: () => status.snapshot(),
        printers: () => printers.listPrinters({}),
        settings: () => settingsView.getSettings(),
        counts: () => ledger.counts(),
        recentRequests: () => connection.recentRequests.list(),
        secrets: [apiKeys.read(), ...(deps.secrets?.() ?? [])],
      });
      log.info(`diagnostics: wrote ${saved.path}`);
      return saved;
    },
  };
}
