// @vitest-environment happy-dom
/**
 * The bridge token in the page address (src/renderer/bridge/token.ts): moved from the query
 * (never sent to the server again) to the fragment, where it stays, so a bookmark of the page
 * opens the app after the agent restarts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { takeBridgeToken } from '../../../src/renderer/bridge/token';

afterEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the bridge token in the address', () => {
  it('moves from ?token= to #token= and stays in the address bar for a bookmark', () => {
    window.history.replaceState(null, '', '/?token=abc_DEF-123&x=1');
    expect(takeBridgeToken()).toBe('abc_DEF-123');
    expect(window.location.search).toBe('?x=1');
    expect(window.location.hash).toBe('#token=abc_DEF-123');
  });

  it('is read from the fragment of a bookmarked address, with nothing kept in this tab', () => {
    window.history.replaceState(null, '', '/#token=from-bookmark');
    expect(takeBridgeToken()).toBe('from-bookmark');
    expect(window.location.hash).toBe('#token=from-bookmark');
  });

  it('survives a reload after the fragment was edited away (this tab only)', () => {
    window.history.replaceState(null, '', '/?token=kept');
    takeBridgeToken();
    window.history.replaceState(null, '', '/');
    expect(takeBridgeToken()).toBe('kept');
  });
});
