import { SandboxError } from '../errors';

/** A webhook configuration the spec does not allow; the message says how to fix it. */
export class WebhookConfigError extends SandboxError {
  constructor(code: 'SANDBOX_WEBHOOK_ENDPOINT_LIMIT' | 'SANDBOX_WEBHOOK_ENDPOINT_INVALID', message: string) {
    super(code, message);
  }
}
