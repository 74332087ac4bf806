import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../../../../src/main/ledger/ledger';
import type { ParsedWebhook } from '../../../../../src/main/intake/sources/webhooks/envelope';
import {
  newReceiverCounters,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../../../src/main/intake/sources/webhooks/webhook-receiver';
import { signPayload } from '../../../../../src/sandbox/webhooks/signature';
import { tempDir } from '../../../../support/jobs/fakes';

const SECRET = 'whsec-test';

function body(messageId: string, shipmentId = 'shp_1'): string {
  return JSON.stringify({
    message_id: messageId,
    type: 'PARCEL_WEIGHED',
    created_at: '2026-01-01T10:00:00Z',
    shipment_id: shipmentId,
    data: {},
  });
}

/**
 * Signed deliveries that reach the receiver in the same turn of its event loop: one
 * connection each, all open first, then every request written at once. Resolves with each
 * answer's status, in order, as each arrives (`onAnswer`).
 */
async function deliverTogether(
  receiverUrl: string,
  bodies: readonly string[],
  onAnswer: (i: number) => void = () => {},
): Promise<number[]> {
  const url = new URL(receiverUrl);
  const sockets = await Promise.all(
    bodies.map(
      () =>
        new Promise<net.Socket>(
          (resolve) =>
            void net.connect(Number(url.port), url.hostname).once('connect', function (this: net.Socket) {
              resolve(this);
            }),
        ),
    ),
  );
  // Accepted by the receiver before anything is written, so every request is read in one turn.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const answers = sockets.map(
    (socket, i) =>
      new Promise<number>((resolve) => {
        let text = '';
        socket.on('data', (chunk) => {
          text += String(chunk);
          if (!text.includes('\r\n\r\n')) return;
          onAnswer(i);
          resolve(Number(text.split(' ')[1]));
        });
      }),
  );
  const time = Math.floor(Date.now() / 1000);
  sockets.forEach((socket, i) => {
    const body = bodies[i]!;
    socket.write(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nService-Signature: ${signPayload(SECRET, body, time)}\r\n\r\n${body}`,
    );
  });
  try {
    return await Promise.all(answers);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

describe('webhook receiver: group commit', () => {
  let tmp: ReturnType<typeof tempDir>;
  let ledger: Ledger;
  let receiver: WebhookReceiver | undefined;
  beforeEach(() => {
    tmp = tempDir();
    ledger = Ledger.open({ path: path.join(tmp.dir, 'ledger.sqlite'), pruneIntervalMs: 0 });
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
    ledger.close();
    tmp.cleanup();
  });

  it('records the deliveries of one turn in one transaction and acknowledges each only once it committed', async () => {
    let transactions = 0;
    let depth = 0;
    const committed = new Set<string>();
    let inTransaction: string[] = [];
    const deliveries = {
      together: <T>(fn: () => T): T => {
        if (depth++ === 0) transactions++;
        try {
          return ledger.intake.transaction(fn);
        } finally {
          if (--depth === 0) {
            for (const id of inTransaction) committed.add(id);
            inTransaction = [];
          }
        }
      },
      remember: (webhook: ParsedWebhook) => {
        inTransaction.push(webhook.envelope.message_id);
        return ledger.intake.rememberMessage(webhook.envelope.message_id);
      },
      process: () => undefined,
    };
    const counters = newReceiverCounters();
    receiver = await startWebhookReceiver({ secrets: [SECRET] }, deliveries, counters);
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const ackedBeforeCommit: string[] = [];
    const statuses = await deliverTogether(
      receiver.url,
      ids.map((id) => body(id)),
      (i) => void (committed.has(ids[i]!) || ackedBeforeCommit.push(ids[i]!)),
    );
    expect(statuses).toEqual(ids.map(() => 200));
    expect(ackedBeforeCommit).toEqual([]);
    expect(counters.accepted).toBe(20);
    // Read in one turn, so recorded in one transaction (two if the reads straddled a turn).
    expect(transactions).toBeGreaterThan(0);
    expect(transactions).toBeLessThanOrEqual(2);
    // Each is in the ledger: a second delivery of any is a duplicate.
    for (const id of ids) expect(ledger.intake.rememberMessage(id)).toBe(false);
  });

  it('answers 500 for the one delivery of a group that cannot be recorded, and keeps the others', async () => {
    const processed: string[] = [];
    const deliveries = {
      together: <T>(fn: () => T): T => ledger.intake.transaction(fn),
      remember: (webhook: ParsedWebhook) => {
        const fresh = ledger.intake.rememberMessage(webhook.envelope.message_id);
        if (webhook.envelope.shipment_id === 'bad') throw new Error('cannot store this one');
        return fresh;
      },
      process: (webhook: ParsedWebhook) => void processed.push(webhook.envelope.message_id),
    };
    const counters = newReceiverCounters();
    receiver = await startWebhookReceiver({ secrets: [SECRET] }, deliveries, counters);
    const ids = Array.from({ length: 12 }, () => randomUUID());
    const bad = ids[5]!;
    const statuses = await deliverTogether(
      receiver.url,
      ids.map((id) => body(id, id === bad ? 'bad' : 'shp_1')),
    );
    expect(statuses).toEqual(ids.map((id) => (id === bad ? 500 : 200)));
    expect(counters).toMatchObject({ accepted: 11 });
    expect(counters.rejected.internal).toBe(1);
    // The refused one left nothing behind (its savepoint was rolled back); the others are recorded.
    expect(ledger.intake.rememberMessage(bad)).toBe(true);
    for (const id of ids.filter((i) => i !== bad)) expect(ledger.intake.rememberMessage(id)).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    expect(processed.sort()).toEqual(ids.filter((i) => i !== bad).sort());
  });
});
