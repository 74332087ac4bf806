/**
 * How pack-and-ship steps report failure: service and validation errors become data
 * (PackResult) with their request id and, for 422s, the field map in a packer's words.
 */
import type { FieldProblem, PackProblem, PackResult } from '../../shared/domain';
import { ApiError } from '../api/errors';
import { CodedError } from '../errors';
import { toFieldProblems } from './field-words';

export class PackError extends CodedError {}

class InvalidPackInput extends PackError {
  constructor(
    message: string,
    readonly fields: readonly FieldProblem[],
  ) {
    super('PACK_INVALID_INPUT', message);
  }
}

export const invalid = (message: string, fields: readonly FieldProblem[]): PackError => new InvalidPackInput(message, fields);

/** Runs a step; service and validation failures become data the UI can show by the fields. */
export async function attempt<T>(step: () => Promise<T>): Promise<PackResult<T>> {
  try {
    return { ok: true, value: await step() };
  } catch (error) {
    const problem = toProblem(error);
    if (!problem) throw error;
    return { ok: false, problem };
  }
}

export function toProblem(error: unknown): PackProblem | null {
  if (error instanceof ApiError) {
    return { code: error.code, message: error.message, requestId: error.requestId, fields: toFieldProblems(error.fieldErrors) };
  }
  if (error instanceof InvalidPackInput) return { code: error.code, message: error.message, requestId: null, fields: error.fields };
  if (error instanceof PackError) return { code: error.code, message: error.message, requestId: null, fields: [] };
  return null;
}
