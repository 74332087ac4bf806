/** `npm run sandbox -- OPTIONS`: the embedded Shipment Booking Service on its own. */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { FaultSettings } from './faults';
import { startSandbox, type SandboxOptions } from './server';
import type { WebhookEndpoint } from './webhooks/types';

const USAGE = `Usage: npm run sandbox -- [options]

  --port N                listen on 127.0.0.1:N (0 = any free port; default 0)
  --api-key K             the team's API key (default sandbox-key)
  --webhook-url U         push webhooks to U (repeatable, at most 5)
  --webhook-secret S      signing secret: once for all URLs, or once per URL in order
  --simulate-carrier      booked shipments move through carrier tracking events
  --adr-approved          the team holds ADR approval
  --latency-ms N          add N ms to every API response
  --error-rate R          answer a share R (0..1) of API requests with 503
  --rate-limit-rate R     answer a share R (0..1) of API requests with 429 + Retry-After
  --drop-rate R           drop a share R (0..1) of API connections without an answer
  --label-delay-ms N      print answers 503 + Retry-After until N ms after booking
  --help                  show this text
`;

export class CliUsageError extends Error {}

function number(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new CliUsageError(`--${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/** Turns argv into sandbox options; throws CliUsageError with a message for the user. */
export function parseCli(argv: readonly string[]): { help: true } | { help: false; options: SandboxOptions } {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      port: { type: 'string' },
      'api-key': { type: 'string' },
      'webhook-url': { type: 'string', multiple: true },
      'webhook-secret': { type: 'string', multiple: true },
      'simulate-carrier': { type: 'boolean' },
      'adr-approved': { type: 'boolean' },
      'latency-ms': { type: 'string' },
      'error-rate': { type: 'string' },
      'rate-limit-rate': { type: 'string' },
      'drop-rate': { type: 'string' },
      'label-delay-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true };
  const urls = values['webhook-url'] ?? [];
  const secrets = values['webhook-secret'] ?? [];
  if (urls.length > 5) throw new CliUsageError('at most 5 --webhook-url (the service allows 5 endpoints)');
  if (urls.length > 0 && secrets.length === 0) throw new CliUsageError('--webhook-url needs --webhook-secret');
  if (secrets.length > 1 && secrets.length !== urls.length) {
    throw new CliUsageError('give one --webhook-secret for all URLs, or exactly one per --webhook-url');
  }
  const webhooks: WebhookEndpoint[] = urls.map((url, i) => {
    try {
      new URL(url);
    } catch {
      throw new CliUsageError(`--webhook-url "${url}" is not a URL`);
    }
    return { url, secret: secrets.length === 1 ? secrets[0]! : secrets[i]! };
  });
  const faults: Partial<FaultSettings> = {};
  const set = (key: keyof FaultSettings, flag: string, rate = false): void => {
    const value = number(flag, values[flag as 'latency-ms']);
    if (value === undefined) return;
    if (rate && value > 1) throw new CliUsageError(`--${flag} must be between 0 and 1`);
    (faults as Record<string, number>)[key] = value;
  };
  set('latencyMs', 'latency-ms');
  set('errorRate', 'error-rate', true);
  set('rateLimitRate', 'rate-limit-rate', true);
  set('dropRate', 'drop-rate', true);
  set('labelDelayMs', 'label-delay-ms');
  const port = number('port', values.port);
  if (port !== undefined && (!Number.isInteger(port) || port > 65535)) throw new CliUsageError('--port must be an integer from 0 to 65535');
  return {
    help: false,
    options: {
      port,
      apiKey: values['api-key'],
      webhooks,
      simulateCarrier: values['simulate-carrier'] ?? false,
      adrApproved: values['adr-approved'] ?? false,
      faults,
    },
  };
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseCli>;
  try {
    parsed = parseCli(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`sandbox: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return;
  }
  const sandbox = await startSandbox(parsed.options);
  process.stdout.write(`sandbox: ${sandbox.baseUrl}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`sandbox: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
