// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { ShipmentDocumentState } from '../../src/shared/domain';
import { shipmentDocumentsPanel } from '../../src/renderer/views/shipment-documents';
import { context, fakeClient, job, printer, settle, shipment } from '../support/fake-agent-client';

const SHIPMENT = shipment({ carrierName: 'DB Schenker', availableDocuments: ['label', 'waybill', 'manifest', 'adr_dangerousgoods'] });
// 09:14 in the station's time zone, whatever it is.
const AT = new Date(2026, 10, 24, 9, 14).toISOString();
const printed = (documentType: string): ShipmentDocumentState => ({
  documentType,
  state: 'printed',
  detail: null,
  printedAt: AT,
  printer: 'cups:Zebra_bench_2',
});
const notPrinted = (documentType: string): ShipmentDocumentState => ({
  documentType,
  state: 'not_printed',
  detail: 'not printed yet',
  printedAt: null,
  printer: null,
});

afterEach(() => document.body.replaceChildren());

describe('documents of a scanned parcel', () => {
  it('says when and where the label printed, lists each document, and prints the missing ones', async () => {
    let states = [printed('label'), notPrinted('waybill'), notPrinted('manifest')];
    const client = fakeClient({
      listPrinters: async () => [printer({ uri: 'cups:Zebra_bench_2', name: 'Zebra bench 2' })],
      shipmentDocuments: async () => states,
      printShipmentDocuments: async () => {
        const waiting = 'waiting in the queue (queued)';
        states = [printed('label'), { ...notPrinted('waybill'), detail: waiting }, { ...notPrinted('manifest'), detail: waiting }];
        return { queued: 2, retried: 0, waiting: 1, documents: states };
      },
    });
    const element = shipmentDocumentsPanel(SHIPMENT, context(client));
    document.body.append(element);
    await settle();
    await settle();
    const notice = element.querySelector('.printed-notice')!.textContent;
    expect(notice).toBe('Label printed 09:14 on Zebra bench 2. Reprint (Alt+R) prints it again.');
    const items = Array.from(element.querySelectorAll('[aria-label="Documents to print"] li')).map((li) => li.textContent);
    expect(items).toEqual([
      'Labelprinted09:14 on Zebra bench 2',
      // The station prints only labels by itself (the default auto-print): the others are no alarm.
      'Waybillnot printed herenot printed yet',
      'Manifestnot printed herenot printed yet',
    ]);
    expect(element.querySelectorAll('.eod-state.not_printed')).toHaveLength(0);
    // An upload the service lists (ADR certificate) is not a document the station can print.
    const asked = client.calls.find((c) => c.op === 'shipmentDocuments')!.input;
    expect(asked).toEqual({ shipmentId: 'shp_1', documentTypes: ['label', 'waybill', 'manifest'] });
    const button = element.querySelector<HTMLButtonElement>('button.print-documents')!;
    expect(button.textContent).toBe('Print here (2)');
    button.click();
    await settle();
    const prints = client.calls.filter((c) => c.op === 'printShipmentDocuments');
    expect(prints).toEqual([{ op: 'printShipmentDocuments', input: { shipmentId: 'shp_1' } }]);
    const said = element.querySelector('[role=status].inline-result')!.textContent;
    expect(said).toBe('2 documents sent to print, 1 already printing or printed.');
    expect(button.disabled).toBe(true); // both wait in line now: nothing left to press for
  });

  it('follows job events of its shipment only', async () => {
    let asked = 0;
    const client = fakeClient({ listPrinters: async () => [], shipmentDocuments: async () => (asked++, [notPrinted('label')]) });
    const element = shipmentDocumentsPanel(SHIPMENT, context(client));
    document.body.append(element);
    await settle();
    await settle();
    expect(element.querySelector('.printed-notice')!.textContent).toBe('');
    expect(asked).toBe(1);
    client.emit({ type: 'job', job: job({ shipmentId: 'other' }) });
    client.emit({ type: 'job', job: job({ shipmentId: 'SHP_1' }) });
    await new Promise((r) => setTimeout(r, 200));
    expect(asked).toBe(2);
  });
});
