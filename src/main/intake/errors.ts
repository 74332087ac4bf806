import type { AgentMessage } from '../../shared/agent-messages';
import { CodedError } from '../errors';

/** Stable codes for intake configuration problems (webhooks, poller, station rules). */
export const INTAKE_ERROR_CODES = {
  INVALID_STATION_RULES: 'INTAKE_INVALID_STATION_RULES',
  INVALID_RULE_PATTERN: 'INTAKE_INVALID_RULE_PATTERN',
  NO_WEBHOOK_SECRET: 'INTAKE_NO_WEBHOOK_SECRET',
  INVALID_OPTION: 'INTAKE_INVALID_OPTION',
} as const;
export type IntakeErrorCode = (typeof INTAKE_ERROR_CODES)[keyof typeof INTAKE_ERROR_CODES];

/** A configuration the intake cannot run with; raised when it is set, never while matching. */
export class IntakeConfigError extends CodedError {
  override readonly code: IntakeErrorCode;

  constructor(code: IntakeErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.code = code;
  }
}

/**
 * A webhook booking could not be decided yet: its station rules need a field the webhook does
 * not carry and the shipment could not be fetched. Not a failure: the booking waits, stored,
 * and is tried again (pending-decisions.ts).
 */
export class BookingDeferredError extends CodedError {
  override readonly code = 'INTAKE_BOOKING_DEFERRED';

  constructor(message: string | AgentMessage, options?: { cause?: unknown }) {
    super('INTAKE_BOOKING_DEFERRED', message, options);
  }
}

/** Retry or Cancel pressed on a waiting webhook booking's history entry: it is not a job yet. */
export class BookingWaitingError extends CodedError {
  override readonly code = 'INTAKE_BOOKING_WAITING';

  constructor(message: string) {
    super('INTAKE_BOOKING_WAITING', message);
  }
}
