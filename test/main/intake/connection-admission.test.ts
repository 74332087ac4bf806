/**
 * The admission policy on its own, step by step: who makes room at an address's budget and at
 * the cap, and when a newcomer is refused. (connection-flood.test.ts runs it over real sockets.)
 */
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConnectionAdmission } from '../../../src/main/intake/connection-admission';

interface FakeSocket {
  readonly name: string;
  destroyed: boolean;
}

function socket(name: string, remoteAddress: string): Socket & FakeSocket {
  const s = {
    name,
    remoteAddress,
    destroyed: false,
    destroy() {
      s.destroyed = true;
    },
    once() {
      return s;
    },
  };
  return s as unknown as Socket & FakeSocket;
}

describe('ConnectionAdmission', () => {
  it('makes room from the address at its budget, then from the busiest address at the cap, and refuses when all are busy', () => {
    const admission = new ConnectionAdmission({ maxConnections: 4, maxConnectionsPerAddress: 2 });
    const [a1, a2, a3, a4] = ['a1', 'a2', 'a3', 'a4'].map((n) => socket(n, '10.0.0.1'));
    const [b1, b2] = ['b1', 'b2'].map((n) => socket(n, '10.0.0.2'));
    const c1 = socket('c1', '10.0.0.3');

    expect([a1, a2, b1].map((s) => admission.admit(s!))).toEqual(['admitted', 'admitted', 'admitted']);
    // A third from 10.0.0.1 while 10.0.0.2 is connected: its own oldest idle one makes room.
    expect(admission.admit(a3!)).toBe('made-room');
    expect(a1!.destroyed).toBe(true);
    // Both of 10.0.0.1's connections answering requests: no room for a fourth from it.
    admission.requestStarted(a2!);
    admission.requestStarted(a3!);
    expect(admission.admit(a4!)).toBe('refused');
    expect(a4!.destroyed).toBe(true);
    expect(admission.admit(b2!)).toBe('admitted');
    expect(admission.size).toBe(4);
    // At the cap: the busiest address with an idle connection (10.0.0.2) gives its oldest.
    expect(admission.admit(c1)).toBe('made-room');
    expect(b1!.destroyed).toBe(true);
    expect([a2, a3, b2, c1].map((s) => s!.destroyed)).toEqual([false, false, false, false]);
    expect(admission.counts).toEqual({ madeRoom: 2, refused: 1 });
  });

  it('from one address only (a proxy, loopback) closes the connection idle the longest, never a busy one', () => {
    const admission = new ConnectionAdmission({ maxConnections: 2, maxConnectionsPerAddress: 1 });
    const [x1, x2, x3, x4, x5] = ['x1', 'x2', 'x3', 'x4', 'x5'].map((n) => socket(n, '127.0.0.1'));
    admission.admit(x1!);
    admission.admit(x2!);
    admission.requestStarted(x1!);
    expect(admission.admit(x3!)).toBe('made-room');
    expect([x1!.destroyed, x2!.destroyed]).toEqual([false, true]);
    admission.requestStarted(x3!);
    expect(admission.admit(x4!)).toBe('refused');
    admission.requestEnded(x1!);
    expect(admission.isIdle(x1!)).toBe(true);
    expect(admission.admit(x5!)).toBe('made-room');
    expect(x1!.destroyed).toBe(true);
  });
});
