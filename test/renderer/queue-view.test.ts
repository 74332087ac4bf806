// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/shared/domain';
import { QUEUE_PAGE_SIZE, QueueView } from '../../src/renderer/views/queue-view';
import { context, fakeClient, job, settle } from '../support/fake-agent-client';
import { setLanguage } from '../../src/renderer/i18n';
import { localClock } from '../../src/renderer/format';

function mount(jobs: JobView[], ops: Parameters<typeof fakeClient>[0] = {}) {
  const client = fakeClient({ listJobs: async () => jobs, ...ops });
  const view = new QueueView(context(client));
  document.body.append(view.element);
  view.element.hidden = false;
  return { client, view };
}

const rows = () => Array.from(document.querySelectorAll<HTMLTableRowElement>('tr.job'));
const button = (name: string) => Array.from(document.querySelectorAll('button')).find((b) => b.textContent === name)!;
const pagerText = () => document.querySelector('.pager-text')?.textContent;

afterEach(() => document.body.replaceChildren());

describe('queue view', () => {
  it('says why the site sent a job here: printed at the station, claimed by a scan at its time; in the UI language', async () => {
    const at = '2026-11-26T10:42:00.000Z';
    const claimed = job({
      state: 'completed',
      reference: 'ORDER-1',
      siteDecision: { station: 'Packing 3', reason: 'claim', at, code: 'ORDER-1', why: 'claimed by a scan of ORDER-1' },
    });
    const waiting = job({
      state: 'queued',
      reference: 'ORDER-2',
      siteDecision: { station: 'Packing 3', reason: 'fallback', at, movedFrom: 'Packing 2', why: 'moved' },
    });
    const plain = job({ state: 'completed', reference: 'ORDER-3' });
    const { view } = mount([claimed, waiting, plain]);
    await view.load();
    const line = (i: number) => rows()[i]!.querySelector('.site-decision')?.textContent ?? null;
    expect(line(0)).toBe(`Printed at Packing 3: claimed by a scan at ${localClock(at)}`);
    expect(line(1)).toBe('Goes to Packing 3: Packing 2 was offline, its fallback prints it');
    expect(line(2)).toBeNull();
    expect(rows()[0]!.textContent).toContain('booked (through the site)');
    expect(rows()[0]!.textContent).not.toContain('webhook');
    try {
      setLanguage('sv');
      document.body.replaceChildren();
      const again = mount([claimed]);
      await again.view.load();
      expect(line(0)).toMatch(/^Utskriven på Packing 3: /);
      expect(line(0)).not.toContain('claimed');
    } finally {
      setLanguage('en');
    }
  });

  it('shows 25 jobs a page, with Previous and Next', async () => {
    const jobs = Array.from({ length: 60 }, (_, i) => job({ reference: `P-${i + 1}` }));
    const { client, view } = mount(jobs);
    await view.load();
    expect(QUEUE_PAGE_SIZE).toBe(25);
    expect(rows()).toHaveLength(25);
    expect(rows()[0]?.textContent).toContain('P-1');
    expect(pagerText()).toBe('Jobs 1–25 of 60 · page 1 of 3');
    expect(button('Previous').disabled).toBe(true);
    button('Next').click();
    expect(rows()[0]?.textContent).toContain('P-26');
    button('Next').click();
    expect(rows()).toHaveLength(10);
    expect(pagerText()).toBe('Jobs 51–60 of 60 · page 3 of 3');
    expect(button('Next').disabled).toBe(true);
    button('Previous').click();
    expect(rows()[0]?.textContent).toContain('P-26');
    // The agent was asked for as many jobs as it gives in one call.
    expect(client.calls.filter((c) => c.op === 'listJobs').at(-1)?.input).toEqual({ search: undefined, state: undefined, limit: 500 });
  });

  it('reprints a completed job from the history: same shipment, document, layout and printer', async () => {
    const done = job({
      state: 'completed',
      reference: 'R-1',
      shipmentId: 'shp_9',
      documentType: 'label',
      layout: 'printer',
      target: 'cups:Zebra',
    });
    const again = job({ state: 'queued', reference: 'R-1', shipmentId: 'shp_9', trigger: 'reprint' });
    const { client, view } = mount([done, job({ state: 'queued', reference: 'Q-1' })], { reprint: async () => [again] });
    await view.load();
    const reprints = Array.from(document.querySelectorAll('button')).filter((b) => b.textContent === 'Reprint');
    // Only the finished job offers it: the waiting one is still to print.
    expect(reprints).toHaveLength(1);
    expect(reprints[0]?.getAttribute('aria-label')).toBe('Reprint R-1 label');
    reprints[0]!.click();
    await settle();
    expect(client.calls.find((c) => c.op === 'reprint')?.input).toEqual({
      shipmentId: 'shp_9',
      documentType: 'label',
      layout: 'printer',
      printer: 'cups:Zebra',
    });
  });

  it('hides the pager when everything fits on one page', async () => {
    const { view } = mount([job(), job()]);
    await view.load();
    expect(rows()).toHaveLength(2);
    expect(document.querySelector<HTMLElement>('.pager')?.hidden).toBe(true);
  });

  it('names documents and triggers in words, never API names', async () => {
    const { view } = mount([
      job({ documentType: 'customsinvoice', trigger: 'reprint', layout: 'a4' }),
      job({ documentType: 'proofofdelivery' }),
      job({ documentType: 'abd', trigger: 'manual' }),
      job({ trigger: 'scan' }),
      job({ trigger: 'poll' }),
    ]);
    await view.load();
    const text = document.querySelector('table.jobs')?.textContent ?? '';
    // How each came: a booking made at this station (pack and ship) says so, apart from intake's.
    expect(text).toContain('booked here');
    expect(text).toContain('booked (webhook)');
    expect(text).toContain('booked (polling)');
    expect(text).toContain('Customs invoice');
    expect(text).toContain('A4, one label · reprint');
    expect(text).toContain('Proof of delivery');
    expect(text).toContain('Export accompanying document');
    expect(text).toContain('test print');
    expect(text).not.toMatch(/customsinvoice|proofofdelivery|\babd\b/);
    // Each cell carries its column name for the narrow (card) layout.
    const labels = Array.from(rows()[0]!.cells).map((c) => c.dataset.label);
    expect(labels).toEqual(['State', 'Document', 'Shipment', 'Printer', 'When', 'Actions']);
  });

  it('retries a failed job and shows its new state in place', async () => {
    const failed = job({ state: 'failed', reason: 'CUPS queue "Labels" does not exist', reference: 'ORDER-9' });
    const { view, client } = mount([failed], { retryJob: async () => ({ ...failed, state: 'queued', reason: null }) });
    await view.load();
    const retry = document.querySelector<HTMLButtonElement>('td.actions button')!;
    expect(retry.getAttribute('aria-label')).toBe('Retry job ORDER-9 label');
    expect(rows()[0]?.querySelector('.reason')?.textContent).toContain('does not exist');
    retry.click();
    await settle();
    expect(client.calls.find((c) => c.op === 'retryJob')?.input).toEqual({ id: failed.id });
    expect(rows()[0]?.querySelector('.badge')?.textContent).toBe('queued');
    expect(rows()[0]?.querySelector('button')?.textContent).toBe('Cancel');
  });

  it('puts a live job on top of the first page', async () => {
    const jobs = Array.from({ length: 30 }, () => job());
    const { view } = mount(jobs);
    await view.load();
    const fresh = job({ reference: 'LIVE-1', state: 'queued' });
    view.onJob(fresh);
    expect(rows()[0]?.textContent).toContain('LIVE-1');
    expect(pagerText()).toBe('Jobs 1–25 of 31 · page 1 of 2');
  });

  it('says so when nothing matches', async () => {
    const { view } = mount([]);
    await view.load();
    expect(document.querySelector('td.empty')?.textContent).toBe('No jobs yet.');
  });
});
