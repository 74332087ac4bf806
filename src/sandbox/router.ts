import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from './http';
import type { SandboxState } from './state';
import type { Services } from './services';

export interface Ctx {
  readonly state: SandboxState;
  readonly services: Services;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** The body parsed as JSON (`{}` when empty); 400 when it is not JSON. */
  json(): Promise<unknown>;
  raw(): Promise<Buffer>;
}

export type Handler = (ctx: Ctx) => Promise<Reply> | Reply;

export interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly keys: readonly string[];
  readonly handler: Handler;
}

/** `/shipments/:id/tracking` -> a route matching one path segment per `:name`. */
export function route(method: string, path: string, handler: Handler): Route {
  const keys: string[] = [];
  const source = path.replace(/:([a-z_]+)/g, (_m, key: string) => {
    keys.push(key);
    return '([^/]+)';
  });
  return { method, pattern: new RegExp(`^${source}/?$`), keys, handler };
}

export type Match = { route: Route; params: Record<string, string> } | { allowed: string[] } | null;

export function match(routes: readonly Route[], method: string, path: string): Match {
  const allowed: string[] = [];
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    if (r.method !== method) {
      allowed.push(r.method);
      continue;
    }
    const params: Record<string, string> = {};
    r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1] ?? '')));
    return { route: r, params };
  }
  return allowed.length > 0 ? { allowed } : null;
}
