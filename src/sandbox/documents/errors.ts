import { SandboxError } from '../errors';

/** The sandbox could not render a document; the message says which input to fix. */
export class DocumentRenderError extends SandboxError {
  constructor(code: 'SANDBOX_DOCUMENT_EMPTY' | 'SANDBOX_DOCUMENT_LAYOUT', message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
