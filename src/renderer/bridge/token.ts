/**
 * The web bridge's token arrives in the page URL the agent printed (`?token=`). The headless
 * agent keeps that token across restarts, so the address must stay bookmarkable: the token
 * moves from the query to the fragment (`/#token=…`) and stays in the address bar. A
 * fragment is never sent to the server, so it stays out of request lines and Referer
 * headers; a bookmark of the page still carries it. A cookie would not do: cookies are
 * shared by every port of 127.0.0.1, so another local program could read it or ride on it.
 * sessionStorage keeps it for reloads of this tab should the fragment be edited away.
 */
const STORAGE_KEY = 'printStation.bridgeToken';
const FRAGMENT_KEY = 'token';

function fragmentToken(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get(FRAGMENT_KEY);
}

function remember(token: string): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Storage can be disabled; the token still works for this page's life.
  }
}

export function takeBridgeToken(): string | null {
  const url = new URL(window.location.href);
  const fromQuery = url.searchParams.get(FRAGMENT_KEY);
  if (fromQuery) {
    url.searchParams.delete(FRAGMENT_KEY);
    url.hash = `${FRAGMENT_KEY}=${encodeURIComponent(fromQuery)}`;
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    remember(fromQuery);
    return fromQuery;
  }
  const fromFragment = fragmentToken(url.hash);
  if (fromFragment) {
    remember(fromFragment);
    return fromFragment;
  }
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Opens the app at a new address (after rotateUiAddress): the new token takes over this tab. */
export function openUiAddress(address: string): void {
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing kept to forget.
  }
  window.location.assign(address);
}
