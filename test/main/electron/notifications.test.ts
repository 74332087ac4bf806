import type { NotificationConstructorOptions } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AgentNotifier } from '../../../src/main/electron/notifications';
import type { AgentEvent } from '../../../src/shared/agent-api';
import type { JobView } from '../../../src/shared/domain';

const job = (id: string, overrides: Partial<JobView> = {}): JobView => ({
  id,
  shipmentId: `ship-${id}`,
  reference: `ORDER-${id}`,
  trackingId: null,
  documentType: 'label',
  layout: 'printer',
  target: 'cups:Zebra',
  copies: 1,
  trigger: 'webhook',
  state: 'failed',
  reason: 'The printer is offline',
  requestId: null,
  attempts: 1,
  spoolerJobId: null,
  createdAt: '2026-11-22T09:00:00Z',
  updatedAt: '2026-11-22T09:00:00Z',
  ...overrides,
});

describe('AgentNotifier', () => {
  let shown: NotificationConstructorOptions[];
  let clicks: Array<() => void>;
  let opened: number;
  let now: number;
  let notifier: AgentNotifier;

  beforeEach(() => {
    vi.useFakeTimers();
    shown = [];
    clicks = [];
    opened = 0;
    now = 1_000_000;
    notifier = new AgentNotifier({
      createNotification: (options) => ({
        show: () => shown.push(options),
        on: (_event, listener) => clicks.push(listener),
      }),
      onClick: () => void (opened += 1),
      now: () => now,
      maxPerWindow: 3,
      windowMs: 60_000,
    });
  });
  afterEach(() => {
    notifier.dispose();
    vi.useRealTimers();
  });

  it('notifies a failed job with its reason and request id, and opens the window on click', () => {
    notifier.handle({ type: 'job', job: job('1', { requestId: 'req-9' }) });
    expect(shown).toEqual([
      expect.objectContaining({ title: 'Print failed: label for ORDER-1', body: 'The printer is offline (request req-9)' }),
    ]);
    clicks[0]!();
    expect(opened).toBe(1);
  });

  it('notifies tracking alerts', () => {
    notifier.handle({ type: 'alert', shipmentId: 's1', title: 'Delivery exception', message: 'Address not found' });
    expect(shown).toEqual([expect.objectContaining({ title: 'Delivery exception', body: 'Address not found' })]);
  });

  it('ignores jobs that did not fail, status and tracking events, and repeats of the same failure', () => {
    const quiet: AgentEvent[] = [
      { type: 'job', job: job('1', { state: 'spooled' }) },
      {
        type: 'status',
        status: {
          team: null,
          environment: 'sandbox',
          state: 'error',
          paused: false,
          lastPrintAt: null,
          lastError: null,
          queued: 0,
          failed: 1,
        },
      },
      {
        type: 'tracking',
        shipmentId: 's',
        event: { id: null, status: 'ORDERED', description: null, location: null, occurredAt: '2026-11-22T09:00:00Z', url: null },
      },
    ];
    for (const event of quiet) notifier.handle(event);
    notifier.handle({ type: 'job', job: job('2') });
    notifier.handle({ type: 'job', job: job('2') });
    expect(shown).toHaveLength(1);
    notifier.handle({ type: 'job', job: job('2', { attempts: 2 }) });
    expect(shown).toHaveLength(2);
  });

  it('limits a storm to a few notifications and then one summary', () => {
    for (let i = 0; i < 20; i += 1) notifier.handle({ type: 'job', job: job(String(i)) });
    expect(shown).toHaveLength(3);
    now += 60_000;
    vi.advanceTimersByTime(60_000);
    expect(shown).toHaveLength(4);
    expect(shown[3]!.title).toBe('17 more print problems');
  });

  it('folds suppressed failures into the next notification once the window has passed', () => {
    for (let i = 0; i < 5; i += 1) notifier.handle({ type: 'job', job: job(String(i)) });
    now += 61_000;
    notifier.handle({ type: 'job', job: job('late') });
    expect(shown).toHaveLength(4);
    expect(shown[3]!.body).toContain('and 2 more');
    vi.advanceTimersByTime(120_000);
    expect(shown).toHaveLength(4);
  });

  it("says a failure, a storm's summary and the folded count in the language set (Finnish, then Danish)", () => {
    notifier.setLanguage('fi');
    for (let i = 0; i < 5; i += 1) notifier.handle({ type: 'job', job: job(String(i), { documentType: 'customsinvoice' }) });
    expect(shown[0]).toMatchObject({ title: 'Tulostus epäonnistui: tullilasku, ORDER-0' });
    now += 60_000;
    vi.advanceTimersByTime(60_000);
    expect(shown[3]).toMatchObject({ title: '2 tulostusongelmaa lisää', body: 'Avaa Print Station nähdäksesi jonon.' });
    notifier.setLanguage('da');
    for (let i = 5; i < 10; i += 1) notifier.handle({ type: 'job', job: job(String(i)) });
    now += 61_000;
    notifier.handle({ type: 'job', job: job('late') });
    expect(shown.at(-1)!.body).toBe('The printer is offline\n…og 3 mere siden sidste notifikation (se køen).');
  });

  it('shows nothing where notifications are unsupported', () => {
    const silent = new AgentNotifier({ createNotification: () => ({ show: () => shown.push({}), on() {} }), isSupported: () => false });
    silent.handle({ type: 'job', job: job('1') });
    expect(shown).toHaveLength(0);
  });
});
