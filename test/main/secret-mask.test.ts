import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/main/log';
import { maskSecret } from '../../src/main/secret-mask';

describe('secrets are masked as whole values', () => {
  it('a short secret only where it stands alone, never the letters of other words', () => {
    expect(maskSecret('connected: team Sandbox Team (http://x/external/v1)', 'x')).toBe(
      'connected: team Sandbox Team (http://***/external/v1)',
    );
    expect(maskSecret('key x refused; box, next', 'x')).toBe('key *** refused; box, next');
  });

  it('a secret of 8 characters or more wherever it appears, even inside other text', () => {
    expect(maskSecret('Authorization=Bearer sk_live_0123456789;', 'sk_live_0123456789')).toBe('Authorization=Bearer ***;');
    expect(maskSecret('prefixsk_live_0123456789suffix', 'sk_live_0123456789')).toBe('prefix***suffix');
  });

  it('in the log: a one-character key leaves the team name and addresses readable', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l), timestamps: false });
    log.redact('x');
    log.info('connected: team Sandbox Team (http://127.0.0.1:1/external/v1)');
    log.info('the key is x');
    expect(lines).toEqual(['connected: team Sandbox Team (http://127.0.0.1:1/external/v1)', 'the key is ***']);
  });
});
