// @vitest-environment happy-dom
/**
 * Settings → Support → "New UI address" (web UI only): asks the agent for a new token
 * (rotateUiAddress) and opens the new address in this tab; a refusal is said in words.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentCallError } from '../../src/renderer/bridge/agent-call-error';
import { createDiagnosticsPanel } from '../../src/renderer/views/diagnostics-panel';
import { context, fakeClient, settings, settle } from '../support/fake-agent-client';

const opened: string[] = [];
vi.mock('../../src/renderer/bridge/token', () => ({ openUiAddress: (url: string) => opened.push(url) }));

afterEach(() => {
  document.body.replaceChildren();
  opened.length = 0;
});

const button = (): HTMLButtonElement =>
  Array.from(document.querySelectorAll('button')).find((b) => b.textContent === 'New UI address') as HTMLButtonElement;

describe('New UI address', () => {
  it('rotates the token and opens the new address here', async () => {
    const client = fakeClient({ rotateUiAddress: async () => ({ url: 'http://127.0.0.1:4780/?token=new' }) });
    document.body.append(createDiagnosticsPanel(context(client)));
    expect(document.body.textContent).toContain('keeps working after restarts: bookmark it');
    button().click();
    await settle();
    expect(client.calls.map((c) => c.op)).toEqual(['rotateUiAddress']);
    expect(opened).toEqual(['http://127.0.0.1:4780/?token=new']);
  });

  it('gives no advice to bookmark an address that will not last (a fresh demo, a port chosen at random)', () => {
    const ctx = context(fakeClient({}));
    ctx.setSettings({ ...settings(), uiAddressLasts: false });
    document.body.append(createDiagnosticsPanel(ctx));
    expect(document.body.textContent).not.toContain('bookmark');
    expect(document.body.textContent).toContain('lasts until the agent stops: its next start prints a new one');
  });

  it('says why when the agent cannot make one', async () => {
    const client = fakeClient({
      rotateUiAddress: async () => {
        throw new AgentCallError({ code: 'UI_ADDRESS_UNAVAILABLE', message: 'This agent serves no web UI.', requestId: null });
      },
    });
    document.body.append(createDiagnosticsPanel(context(client)));
    button().click();
    await settle();
    expect(opened).toEqual([]);
    expect(document.body.textContent).toContain('Could not make a new address');
    expect(button().disabled).toBe(false);
  });
});
