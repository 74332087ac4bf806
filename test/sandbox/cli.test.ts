import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { CliUsageError, parseCli } from '../../src/sandbox/cli';

describe('parseCli', () => {
  it('maps the docs/INTERFACES.md options and the fault flags', () => {
    const parsed = parseCli([
      '--port',
      '8123',
      '--api-key',
      'k',
      '--webhook-url',
      'http://127.0.0.1:1/a',
      '--webhook-url',
      'http://127.0.0.1:2/b',
      '--webhook-secret',
      's',
      '--simulate-carrier',
      '--adr-approved',
      '--latency-ms',
      '20',
      '--error-rate',
      '0.1',
      '--rate-limit-rate',
      '0.2',
      '--drop-rate',
      '0.05',
      '--label-delay-ms',
      '1500',
    ]);
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 8123,
        apiKey: 'k',
        simulateCarrier: true,
        adrApproved: true,
        webhooks: [
          { url: 'http://127.0.0.1:1/a', secret: 's' },
          { url: 'http://127.0.0.1:2/b', secret: 's' },
        ],
        faults: { latencyMs: 20, errorRate: 0.1, rateLimitRate: 0.2, dropRate: 0.05, labelDelayMs: 1500 },
      },
    });
  });

  it('pairs repeated secrets with URLs in order', () => {
    const parsed = parseCli([
      '--webhook-url',
      'http://a.test/',
      '--webhook-secret',
      'one',
      '--webhook-url',
      'http://b.test/',
      '--webhook-secret',
      'two',
    ]);
    expect(parsed.help === false && parsed.options.webhooks).toEqual([
      { url: 'http://a.test/', secret: 'one' },
      { url: 'http://b.test/', secret: 'two' },
    ]);
  });

  it('rejects what cannot work with a message', () => {
    expect(() => parseCli(['--webhook-url', 'http://a.test/'])).toThrow(CliUsageError);
    expect(() => parseCli(['--error-rate', '2'])).toThrow(/between 0 and 1/);
    expect(() => parseCli(['--port', 'x'])).toThrow(CliUsageError);
    expect(() =>
      parseCli(
        Array.from({ length: 6 }, (_v, i) => ['--webhook-url', `http://h${i}.test/`])
          .flat()
          .concat('--webhook-secret', 's'),
      ),
    ).toThrow(/at most 5/);
    expect(() =>
      parseCli([
        '--webhook-url',
        'http://a.test/',
        '--webhook-url',
        'http://b.test/',
        '--webhook-secret',
        '1',
        '--webhook-secret',
        '2',
        '--webhook-secret',
        '3',
      ]),
    ).toThrow(CliUsageError);
    expect(() => parseCli(['--bogus'])).toThrow();
    expect(parseCli(['--help'])).toEqual({ help: true });
  });
});

describe('npm run sandbox', () => {
  it('prints exactly one line with the base URL, serves it, and exits cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--api-key', 'cli-key'], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    const rl = createInterface({ input: child.stdout! });
    const first = await new Promise<string>((resolve, reject) => {
      rl.on('line', (line) => {
        lines.push(line);
        resolve(line);
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
    });
    expect(first).toMatch(/^sandbox: http:\/\/127\.0\.0\.1:\d+\/external\/v1$/);
    const base = first.slice('sandbox: '.length);
    const res = await fetch(`${base}/status`, { headers: { 'x-api-key': 'cli-key' } });
    expect(res.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(lines).toEqual([first]);
  }, 60_000);
});
