import type { IntakeSourceFactory } from '../intake-parts';
import { pollingSource } from './polling/polling-source';
import { webhookSource } from './webhooks/webhook-source';

/**
 * The sources an agent and a relay build from their IntakeParts, started in this order and
 * stopped in the reverse. A new source is one more entry here (docs/ARCHITECTURE.md,
 * "Adding an intake source"). The site station is a source too, but built by the agent,
 * which hands it to composeIntake beside these.
 */
export const INTAKE_SOURCES: readonly IntakeSourceFactory[] = [webhookSource, pollingSource];
