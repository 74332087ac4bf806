import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/main/log';
import { capText, escapeControls, logField, MAX_LOG_FIELD, MAX_LOG_LINE } from '../../../src/main/log-text';

function capture(): { lines: string[]; log: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  return { lines, log: createLogger({ write: (line) => lines.push(line), timestamps: false }) };
}

describe('log lines', () => {
  it('escapes a newline so an outside value cannot write a fake line', () => {
    const { lines, log } = capture();
    log.info('intake: booking ref ORDER-1\n2026-01-01T00:00:00.000Z ERROR fake line\r\u001b[31m');
    expect(lines).toHaveLength(1);
    // eslint-disable-next-line no-control-regex -- the assertion is that no control character survives
    expect(lines[0]).not.toMatch(/[\n\r\u001b]/);
    expect(lines[0]).toBe('intake: booking ref ORDER-1\\n2026-01-01T00:00:00.000Z ERROR fake line\\r\\u001b[31m');
  });

  it('escapes Unicode line separators and bidi overrides', () => {
    expect(escapeControls('a\u2028b\u202ec\u0085')).toBe('a\\u2028b\\u202ec\\u0085');
  });

  it('caps a line, noting how much was left out', () => {
    const { lines, log } = capture();
    log.info(`x${'a'.repeat(199_999)}`);
    expect(lines[0]!.length).toBeLessThan(MAX_LOG_LINE + 40);
    expect(lines[0]).toMatch(/…\(\+198000 chars\)$/);
  });

  it('redacts a key even when it is shorter than 6 characters', () => {
    const { lines, log } = capture();
    log.redact('k3y');
    log.error('request failed with key k3y');
    expect(lines[0]).toBe('ERROR request failed with key ***');
  });

  it('redacts a key before cutting the line, so no prefix of it is left at the cut', () => {
    const { lines, log } = capture();
    const key = 'sk_live_0123456789abcdef';
    log.redact(key);
    log.info(`${'a'.repeat(MAX_LOG_LINE - 5)}${key}${'b'.repeat(100)}`);
    expect(lines[0]).not.toContain('sk_li');
    expect(lines[0]).toContain('…(+');
  });
});

describe('log fields', () => {
  it('caps one value with its length noted', () => {
    expect(logField('a'.repeat(200_000))).toBe(`${'a'.repeat(MAX_LOG_FIELD)}…(+${200_000 - MAX_LOG_FIELD} chars)`);
    expect(logField('short\nline')).toBe('short\\nline');
    expect(capText('abcdef', 3)).toBe('abc…(+3 chars)');
  });
});

describe('the default writer (stderr)', () => {
  it('writes the lines of one event-loop turn with one write, in order, at its end', async () => {
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string) => (writes.push(String(chunk)), true)) as never);
    try {
      const log = createLogger({ timestamps: false });
      log.info('one');
      log.warn('two');
      log.error('three');
      expect(writes).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(writes).toEqual(['one\nWARN two\nERROR three\n']);
      log.info('four');
      await new Promise((resolve) => setImmediate(resolve));
      expect(writes).toEqual(['one\nWARN two\nERROR three\n', 'four\n']);
    } finally {
      spy.mockRestore();
    }
  });
});
