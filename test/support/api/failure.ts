import { expect } from 'vitest';
import { ApiError } from '../../../src/main/api/errors';

/** Expects the call to reject with an ApiError and returns it for assertions. */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
