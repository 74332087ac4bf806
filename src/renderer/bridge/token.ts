/**
 * The web bridge's per-run token arrives in the page URL (`?token=`). It is moved to
 * sessionStorage (survives reloads of this tab, not other tabs or restarts) and taken
 * out of the address bar so it does not end up in history, bookmarks or screenshots.
 */
const STORAGE_KEY = 'printStation.bridgeToken';

export function takeBridgeToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      window.sessionStorage.setItem(STORAGE_KEY, fromUrl);
    } catch {
      // Storage can be disabled; the token still works for this page's life.
    }
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    return fromUrl;
  }
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
