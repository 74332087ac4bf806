import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/api/errors';
import { classifyFailure } from '../../../src/main/jobs/failure';

const serviceError = (status: number, serviceMessage: string | null, retryAfterMs: number | null = null) =>
  new ApiError('SERVICE_UNAVAILABLE', `The service is unavailable (HTTP ${status} on POST /shipments/print)`, {
    status,
    requestId: 'rq-1',
    serviceMessage,
    fieldErrors: {},
    retryAfterMs,
    method: 'POST',
    path: '/shipments/print',
  });

describe('classifyFailure wording of a 503', () => {
  it('says "label not ready yet" only when the service says the label or document is not ready', () => {
    for (const said of [
      'The label is not ready yet: the carrier is still confirming the booking. Retry in a moment.',
      'label not ready',
      'Document not ready',
      'The waybill is NOT READY yet',
    ]) {
      expect(classifyFailure(serviceError(503, said, 1000)), said).toMatchObject({
        transient: true,
        message: 'label not ready yet',
        requestId: 'rq-1',
        retryAfterMs: 1000,
      });
    }
  });

  it('says "the service is unavailable (HTTP 503)" for any other 503', () => {
    for (const said of ['The service is temporarily unavailable. Retry later.', 'Service ready soon', 'The label service is down', null]) {
      expect(classifyFailure(serviceError(503, said)), String(said)).toMatchObject({
        transient: true,
        message: 'the service is unavailable (HTTP 503)',
        requestId: 'rq-1',
      });
    }
  });

  it('keeps the wording of other 5xx answers', () => {
    expect(classifyFailure(serviceError(502, 'label not ready')).message).toBe('the service is unavailable');
  });
});
