// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeError } from '../../../src/renderer/bridge/agent-call-error';
import { createHttpAgentClient } from '../../../src/renderer/bridge/http-client';
import { refreshLanguage } from '../../../src/renderer/i18n';
import { sayLanguages } from '../../support/languages';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  refreshLanguage();
});

describe('the web bridge client in the UI language', () => {
  it('says the agent is unreachable in the packer’s language, and keeps a request id beside the agent’s words', async () => {
    sayLanguages('sv-SE');
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const error = await createHttpAgentClient({ token: 't' })
      .getStatus({})
      .catch((e: unknown) => e);
    expect(describeError(error)).toBe('Utskriftsagenten går inte att nå: kontrollera att den körs och försök sedan igen.');
    expect(describeError({ code: 'X', message: 'Refused', requestId: 'req-1' })).toBe('Refused (förfrågans id req-1)');
    sayLanguages('en-GB');
    expect(
      describeError(
        await createHttpAgentClient({ token: 't' })
          .getStatus({})
          .catch((e: unknown) => e),
      ),
    ).toBe('The print agent is not reachable: check that it is running, then try again.');
  });
});
