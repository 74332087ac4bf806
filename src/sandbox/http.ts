import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';

/** What a route handler answers; server.ts writes it and adds the request id. */
export interface Reply {
  readonly status: number;
  readonly json?: unknown;
  readonly bytes?: Uint8Array;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export type FieldErrors = Record<string, string[]>;

/**
 * An error answer. Body: `{message, code}` plus `errors` (field path -> messages) for
 * validation failures, so one shape serves the spec's Errors 1 and Errors 2.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors?: FieldErrors,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  body(): Record<string, unknown> {
    return this.fieldErrors
      ? { message: this.message, code: this.code, errors: this.fieldErrors }
      : { message: this.message, code: this.code };
  }
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, json: body, headers });

/** `['packages', 0, 'weight_kg']` -> `packages[0].weight_kg` (the spec's path notation). */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(body)';
}

/** Parses with zod; a wrong type is a 400 naming every offending field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) (errors[fieldPath(issue.path)] ??= []).push(issue.message);
  const first = Object.keys(errors)[0] ?? '(body)';
  throw new HttpError(
    400,
    'invalid_request',
    `Invalid request: ${first}: ${errors[first]?.[0] ?? 'invalid'}. Fix the named fields and retry.`,
    errors,
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Malformed ids are the caller's bug (400); well-formed unknown ids are a 404 later. */
export function requireUuid(value: string, what = 'shipment id'): string {
  if (!isUuid(value)) throw new HttpError(400, 'invalid_id', `Malformed ${what} "${value.slice(0, 64)}": expected a UUID.`);
  return value;
}

const MAX_BODY = 10 * 1024 * 1024;

export async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpError(413, 'payload_too_large', 'Request body exceeds 10 MB.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'invalid_json', 'Request body is not valid JSON.');
  }
}
