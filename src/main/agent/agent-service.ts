/**
 * The AgentApi: what the UI can ask of the agent. Electron IPC and the headless web bridge
 * both validate their payloads and forward here. Each operation is implemented once, in its
 * group's file under operations/ (groups.ts says which); this file only puts the groups
 * together and shares what several of them use.
 */
import type { AgentApi } from '../../shared/agent-api';
import { HandsFreeBooking } from '../pack/hands-free';
import { PackFlow } from '../pack/pack-flow';
import { connectionCheck, type ConnectionCheck } from './connection-check';
import type { OperationDeps } from './operations/deps';
import { catchUpOperations } from './operations/catch-up';
import { diagnosticsOperations } from './operations/diagnostics';
import type { OperationGroups } from './operations/groups';
import { handsFreeOperations } from './operations/hands-free';
import { jobOperations } from './operations/jobs';
import { labelOperations } from './operations/labels';
import { packOperations } from './operations/pack';
import { printerOperations } from './operations/printers';
import { reportOperations } from './operations/report';
import { NO_SCALE } from './operations/scale';
import { settingsOperations } from './operations/settings';
import { siteOperations } from './operations/site';

export type { OperationDeps as AgentServiceDeps, UiAddressControl } from './operations/deps';

export interface AgentService {
  readonly api: AgentApi;
  /** GET /status with the current key at the agent's start; throws only when `required` and the key is refused. */
  readonly checkConnection: ConnectionCheck;
  /** The draft armed to book on a stable weight (disarmed when the agent stops). */
  readonly handsFree: HandsFreeBooking;
}

export function createAgentService(deps: OperationDeps): AgentService {
  const checkConnection = connectionCheck(deps);
  // The packing table's flow; the jobs operations ask it which shipments the station voided.
  const pack = new PackFlow({
    client: () => deps.connection.current,
    ledger: deps.ledger,
    pipeline: deps.pipeline,
    autoPrintTypes: () => deps.settings.get().routing.autoPrint,
    log: deps.log,
  });
  const handsFree = new HandsFreeBooking({
    flow: pack,
    scale: () => deps.scaleMonitor?.() ?? null,
    enabled: () => pack.settings.get().bookOnStableWeight,
    log: deps.log,
  });
  const printers = printerOperations(deps);
  const groups: OperationGroups = {
    jobs: jobOperations(deps, (shipmentId) => pack.isCanceled(shipmentId)),
    printers,
    settings: settingsOperations(deps, checkConnection),
    site: siteOperations(deps),
    pack: packOperations(deps, pack),
    handsFree: handsFreeOperations(handsFree),
    labels: labelOperations(deps),
    report: reportOperations(deps),
    diagnostics: diagnosticsOperations(deps, printers),
    scale: deps.scale ?? NO_SCALE,
    catchUp: catchUpOperations(deps),
  };
  const api: AgentApi = {
    ...groups.jobs,
    ...groups.printers,
    ...groups.settings,
    ...groups.site,
    ...groups.pack,
    ...groups.handsFree,
    ...groups.labels,
    ...groups.report,
    ...groups.diagnostics,
    ...groups.scale,
    ...groups.catchUp,
  };
  return { api, checkConnection, handsFree };
}
