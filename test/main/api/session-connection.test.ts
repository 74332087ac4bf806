import { describe, expect, it } from 'vitest';
import { ProvidedSession, type DemoConnectionProvider } from '../../../src/main/api/session-connection';

function provider(fail = false): DemoConnectionProvider & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async start() {
      calls.push('start');
      if (fail) throw new Error('sandbox could not listen');
      return { apiUrl: 'http://127.0.0.1:1/external/v1', apiKey: 'k', environment: 'sandbox', pollIntervalSeconds: 2 };
    },
    async stop() {
      calls.push('stop');
    },
  };
}

describe('ProvidedSession (the agent\'s side of "Try the demo")', () => {
  it('is active between start and stop, and stops its provider once', async () => {
    const p = provider();
    const session = new ProvidedSession(p);
    expect(session.active).toBeNull();
    await session.stop(); // nothing started: the provider is not bothered
    expect(p.calls).toEqual([]);
    expect(await session.start()).toMatchObject({ environment: 'sandbox', pollIntervalSeconds: 2 });
    expect(session.active?.apiUrl).toBe('http://127.0.0.1:1/external/v1');
    await session.stop();
    await session.stop();
    expect(session.active).toBeNull();
    expect(p.calls).toEqual(['start', 'stop']);
  });

  it('releases a start that failed half-way when stopped', async () => {
    const p = provider(true);
    const session = new ProvidedSession(p);
    await expect(session.start()).rejects.toThrow('sandbox could not listen');
    expect(session.active).toBeNull();
    await session.stop();
    expect(p.calls).toEqual(['start', 'stop']);
  });

  it('without a provider refuses with DEMO_UNAVAILABLE and says what to do', async () => {
    const session = new ProvidedSession(undefined);
    await expect(session.start()).rejects.toMatchObject({
      code: 'DEMO_UNAVAILABLE',
      message: expect.stringContaining('connect your account'),
    });
    await session.stop();
  });
});
