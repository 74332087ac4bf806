// @vitest-environment happy-dom
/**
 * The detail beside a booking's state (End of day) and a parcel's document (documents per
 * parcel) in the UI's language: the report's own codes ("never reached this station",
 * "waiting in the queue (queued)") and a job's reason, worded from the message code the agent
 * sends beside its English; the English as sent when there is no code.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentMessage, englishOf, plainMessage, type AgentMessage } from '../../src/shared/agent-messages';
import type { EndOfDayReport, EndOfDayRow, ShipmentDocumentState } from '../../src/shared/domain';
import { refreshLanguage } from '../../src/renderer/i18n';
import { EndOfDayView } from '../../src/renderer/views/end-of-day-view';
import { shipmentDocumentsPanel } from '../../src/renderer/views/shipment-documents';
import { context, fakeClient, printer, settle, shipment as shipmentOf } from '../support/fake-agent-client';
import { sayLanguages } from '../support/languages';
import { endOfDayRow } from '../support/end-of-day';

afterEach(() => {
  vi.restoreAllMocks();
  refreshLanguage();
  document.body.replaceChildren();
});

const coded = (message: AgentMessage): Pick<EndOfDayRow, 'detail' | 'detailMessage'> => ({
  detail: englishOf(message),
  detailMessage: message,
});
const canceledAtPrinter = agentMessage('job.canceledAtPrinter', { spoolerJobId: 'zebra-12' });

const row = endOfDayRow;
const REPORT: EndOfDayReport = {
  day: '2026-11-24',
  generatedAt: '2026-11-24T16:00:00.000Z',
  counts: { booked: 4, printed: 0, may_have_printed: 0, failed: 1, not_printed: 3, canceled: 0 },
  rows: [
    row({ shipmentId: 'shp_1', seenBy: 'service', ...coded(plainMessage('report.neverReached')) }),
    row({ shipmentId: 'shp_2', ...coded(agentMessage('report.waiting', { state: 'queued' })) }),
    row({ shipmentId: 'shp_3', state: 'failed', ...coded(canceledAtPrinter) }),
    row({ shipmentId: 'shp_4', detail: 'words of an older agent' }),
  ],
  manifests: { available: 0, printed: 0 },
  serviceError: null,
};

async function endOfDay(): Promise<EndOfDayView> {
  const view = new EndOfDayView(context(fakeClient({ endOfDay: async () => REPORT })));
  document.body.append(view.element);
  view.show();
  await settle();
  return view;
}
const details = (root: ParentNode): string[] => Array.from(root.querySelectorAll('.eod-row .eod-detail'), (e) => e.textContent ?? '');

describe('the End of day detail column', () => {
  it('reads in Finnish: the report codes and a job reason in words, uncoded words as sent', async () => {
    sayLanguages('fi-FI');
    const view = await endOfDay();
    expect(details(view.element)).toEqual([
      ' ei koskaan tullut tälle asemalle',
      ' odottaa jonossa (ei vielä aloitettu)',
      ' työ zebra-12 peruttiin tulostimella',
      ' words of an older agent',
    ]);
  });

  it('stays the English the agent composed in English', async () => {
    sayLanguages('en-GB');
    const view = await endOfDay();
    expect(details(view.element)).toEqual([
      ' never reached this station',
      ' waiting in the queue (queued)',
      ' job zebra-12 was canceled at the printer',
      ' words of an older agent',
    ]);
  });

  it('downloads the details in Danish, the job reason worded as on screen', async () => {
    sayLanguages('da-DK');
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:eod';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const view = await endOfDay();
    const buttons = view.element.querySelectorAll<HTMLButtonElement>('.eod-actions button');
    buttons[buttons.length - 1]!.click();
    const text = new TextDecoder('utf-8').decode(await blobs[0]!.arrayBuffer());
    const column = text
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(';')[8]);
    expect(column).toEqual([
      'nåede aldrig frem til denne station',
      'venter i køen (i kø)',
      'job zebra-12 blev annulleret ved printeren',
      'words of an older agent',
    ]);
  });
});

describe("a scanned parcel's document details", () => {
  it('read in Norwegian: held, waiting in the queue, not printed yet', async () => {
    sayLanguages('nb-NO');
    const shipment = shipmentOf({ availableDocuments: ['label', 'waybill', 'customsinvoice'] });
    const document = (documentType: string, message: AgentMessage): ShipmentDocumentState => ({
      documentType,
      state: 'not_printed',
      ...coded(message),
      printedAt: null,
      printer: null,
    });
    const states: ShipmentDocumentState[] = [
      document('label', plainMessage('report.held')),
      document('waybill', agentMessage('report.waiting', { state: 'spooling' })),
      document('customsinvoice', plainMessage('report.notPrintedYet')),
    ];
    const client = fakeClient({
      listPrinters: async () => [printer({ uri: 'cups:Zebra' })],
      shipmentDocuments: async () => states,
    });
    const element = shipmentDocumentsPanel(shipment, context(client));
    globalThis.document.body.append(element);
    await settle();
    await settle();
    expect(Array.from(element.querySelectorAll('.document-state .eod-detail'), (e) => e.textContent)).toEqual([
      'holdt tilbake: automatisk utskrift er satt på pause',
      'venter i køen (sendes til skriveren)',
      'ikke skrevet ut ennå',
    ]);
    // Only the document not yet in line is missing: the count reads the English beside the code.
    expect(element.querySelector('button.print-documents')?.textContent).toMatch(/\(1\)$/);
  });
});
