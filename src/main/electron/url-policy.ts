/**
 * Which URLs the app trusts: its own renderer (file:// under out/renderer, or the
 * electron-vite dev server in development) and, for shell.openExternal only, plain
 * http(s) links such as carrier tracking pages.
 */
import { pathToFileURL } from 'node:url';

export interface AppUrlPolicyOptions {
  /** Absolute path of the built renderer folder (out/renderer). */
  readonly rendererDir: string;
  /** electron-vite's dev server (ELECTRON_RENDERER_URL), only when running `npm run dev`. @default undefined */
  readonly devServerUrl?: string;
}

export interface AppUrlPolicy {
  /** True for the app's own pages: the only content allowed to call the agent or be navigated to. */
  isAppUrl(url: string): boolean;
}

export function createAppUrlPolicy(options: AppUrlPolicyOptions): AppUrlPolicy {
  const base = pathToFileURL(options.rendererDir).href.replace(/\/?$/, '/');
  const devOrigin = options.devServerUrl ? (safeUrl(options.devServerUrl)?.origin ?? null) : null;
  return {
    isAppUrl(url) {
      const parsed = safeUrl(url);
      if (!parsed) return false;
      if (parsed.protocol === 'file:') {
        // Compare the normalised path: "out/renderer/../../etc" must not pass as a prefix match.
        return `file://${parsed.pathname}`.startsWith(base) && parsed.host === '';
      }
      return devOrigin !== null && devOrigin !== 'null' && parsed.origin === devOrigin;
    },
  };
}

/** http(s) only, no embedded credentials: what shell.openExternal may be given. */
export function isSafeExternalUrl(url: string): boolean {
  const parsed = safeUrl(url);
  if (!parsed) return false;
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  return parsed.hostname !== '';
}

/**
 * The renderer's Content-Security-Policy: only the app's own scripts and styles, no
 * eval, no plugins, no framing, and connections only to the dev server when there is one.
 */
export function contentSecurityPolicy(devServerUrl?: string): string {
  const dev = devServerUrl ? safeUrl(devServerUrl) : null;
  const connect = dev ? `'self' ${dev.origin} ws://${dev.host}` : "'self'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    // Vite's dev client injects <style> tags for hot reload; the built app has none.
    dev ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "media-src 'self' data:",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function safeUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
