import { CodedError } from '../errors';

/** Stable codes of the scale errors (docs/INTERFACES.md, Scales). */
export const SCALE_ERROR_CODES = {
  /** `--scale` (or Settings → Scale) is not a scale URI this agent knows. */
  INVALID_SCALE_URI: 'INVALID_SCALE_URI',
  /** The port could not be opened (missing, busy, no permission). */
  SCALE_OPEN_FAILED: 'SCALE_OPEN_FAILED',
  /** The scale did not answer within the conversation's deadline. */
  SCALE_TIMEOUT: 'SCALE_TIMEOUT',
  /** The port went away under an open conversation (unplugged). */
  SCALE_LOST: 'SCALE_LOST',
  /** The device's native module could not be loaded on this machine. */
  SCALE_DRIVER_UNAVAILABLE: 'SCALE_DRIVER_UNAVAILABLE',
} as const;

export type ScaleErrorCode = (typeof SCALE_ERROR_CODES)[keyof typeof SCALE_ERROR_CODES];

export class ScaleError extends CodedError {
  constructor(code: ScaleErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
