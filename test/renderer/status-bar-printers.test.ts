// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { agentMessage, englishOf } from '../../src/shared/agent-messages';
import type { AgentStatus } from '../../src/shared/domain';
import { refreshLanguage, setLanguage } from '../../src/renderer/i18n';
import { StatusBar } from '../../src/renderer/views/status-bar';

afterEach(() => {
  localStorage.clear();
  refreshLanguage();
});

const paperOut = agentMessage('printer.zplNotReady', { address: '10.0.0.7:9100', model: 'ZD421-203dpi', conditions: ['paperOut'] });
const BASE: AgentStatus = {
  team: 'Team',
  environment: 'sandbox',
  state: 'ok',
  paused: false,
  lastPrintAt: null,
  lastError: null,
  queued: 0,
  failed: 0,
};

describe('the state bar and printers that are not ready', () => {
  it('shows each not-ready printer in its own words, in the UI language, and nothing once it is ready', () => {
    const bar = new StatusBar();
    bar.show({ ...BASE, printerProblems: [{ uri: 'zpl://10.0.0.7', detail: englishOf(paperOut), detailMessage: paperOut }] });
    const item = bar.element.querySelector('.printer-problem');
    expect(item?.textContent).toMatch(/^Printer not ready.*ZD421-203dpi.*paper out/);
    expect(item?.getAttribute('data-printer')).toBe('zpl://10.0.0.7');
    setLanguage('sv');
    bar.show({ ...BASE, printerProblems: [{ uri: 'zpl://10.0.0.7', detail: englishOf(paperOut), detailMessage: paperOut }] });
    expect(bar.element.querySelector('.printer-problem')?.textContent).toMatch(/^Skrivaren är inte redo.*ZPL-skrivaren/);
    bar.show({ ...BASE, printerProblems: [] });
    expect(bar.element.querySelector('.printer-problem')).toBeNull();
  });

  it('shows words without a message code as the printer gave them', () => {
    const bar = new StatusBar();
    bar.show({ ...BASE, printerProblems: [{ uri: 'ipp://p/ipp/print', detail: 'Printer paused by the operator' }] });
    expect(bar.element.querySelector('.printer-problem')?.textContent).toContain('Printer paused by the operator');
  });
});

describe('a ready printer with a caveat', () => {
  it('says the caveat beside "ready" (a ZPL device that cannot report its state)', async () => {
    const { readiness } = await import('../../src/renderer/words');
    const words = 'ZPL printer 10.0.0.7:9100 takes labels but does not report its state (no answer to ~HS)';
    expect(readiness({ ready: true, detail: words })).toEqual({ tone: 'ok', words: `ready, but: ${words}` });
    expect(readiness({ ready: true, detail: null })).toEqual({ tone: 'ok', words: 'ready' });
  });
});
