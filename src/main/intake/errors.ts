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
