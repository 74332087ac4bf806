/**
 * Which group implements each AgentApi operation. One row per operation: a name written
 * twice does not compile, nor does an operation without a row, so every operation is
 * implemented exactly once. A group's file implements `OperationGroup<'its name'>` and
 * nothing else (an object literal with another group's operation does not compile either).
 *
 * A new group: its name in OperationGroupName, its operations' rows here, its file beside
 * this one, and one line each in agent-service.ts's `groups` and `api`.
 */
import type { AgentApi, AgentOperation } from '../../../shared/agent-api';

export type OperationGroupName =
  'jobs' | 'printers' | 'settings' | 'site' | 'pack' | 'handsFree' | 'labels' | 'report' | 'diagnostics' | 'scale' | 'catchUp';

export const OPERATION_GROUPS = {
  reprint: 'jobs',
  listJobs: 'jobs',
  retryJob: 'jobs',
  cancelJob: 'jobs',
  shipmentJobs: 'jobs',
  setPaused: 'jobs',

  listPrinters: 'printers',
  listConfiguredPrinters: 'printers',
  testPrint: 'printers',
  moveToFallback: 'printers',

  getSettings: 'settings',
  saveSettings: 'settings',
  testConnection: 'settings',
  startDemo: 'settings',
  listCarriers: 'settings',
  rotateUiAddress: 'settings',

  catchUpOffer: 'catchUp',
  printCatchUp: 'catchUp',

  siteStatus: 'site',
  saveSiteRules: 'site',

  lookup: 'pack',
  packDraft: 'pack',
  packPresets: 'pack',
  packUpdate: 'pack',
  packRates: 'pack',
  packServicePoints: 'pack',
  packUpload: 'pack',
  packBook: 'pack',
  packCancel: 'pack',
  getPackSettings: 'pack',
  savePackSettings: 'pack',
  listShippingRules: 'pack',

  packHandsFree: 'handsFree',
  packHandsFreeStatus: 'handsFree',

  labelPreview: 'labels',

  endOfDay: 'report',
  printMissing: 'report',
  printManifests: 'report',
  shipmentDocuments: 'report',
  printShipmentDocuments: 'report',

  getStatus: 'diagnostics',
  saveDiagnostics: 'diagnostics',
  scaleStatus: 'scale',
  scaleDetails: 'scale',
} as const satisfies Record<AgentOperation, OperationGroupName>;

/** The operations of group `G`, as the AgentApi types them. */
export type OperationGroup<G extends OperationGroupName> = Pick<
  AgentApi,
  { [Op in AgentOperation]: (typeof OPERATION_GROUPS)[Op] extends G ? Op : never }[AgentOperation]
>;

/** Every group, by name: agent-service.ts fills it, so a group left out does not compile. */
export type OperationGroups = { readonly [G in OperationGroupName]: OperationGroup<G> };
