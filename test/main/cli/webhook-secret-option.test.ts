import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_USAGE, parseAgentOptions, WEBHOOK_SECRET_FLAG_WARNING } from '../../../src/main/cli/options';

let dir: string;
let config: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'print-station-webhook-secret-'));
  config = join(dir, 'agent.json');
  await writeFile(config, JSON.stringify({ webhookSecrets: ['whsec_from_file_0123456789'] }), { mode: 0o600 });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function parse(argv: string[], env: NodeJS.ProcessEnv = {}): { secrets: readonly string[]; lines: string[] } {
  const lines: string[] = [];
  return { secrets: parseAgentOptions(argv, env, (l) => lines.push(l)).webhookSecrets, lines };
}

describe('webhook secrets', () => {
  it('come from PRINT_STATION_WEBHOOK_SECRET, comma-separated for several, without a warning', () => {
    expect(parse([], { PRINT_STATION_WEBHOOK_SECRET: 'whsec_a_0123456789, whsec_b_0123456789,,' })).toEqual({
      secrets: ['whsec_a_0123456789', 'whsec_b_0123456789'],
      lines: [],
    });
  });

  it('come from webhookSecrets in --config when the environment has none; the environment wins over the file', () => {
    expect(parse(['--config', config])).toEqual({ secrets: ['whsec_from_file_0123456789'], lines: [] });
    expect(parse(['--config', config], { PRINT_STATION_WEBHOOK_SECRET: 'whsec_env_0123456789' }).secrets).toEqual(['whsec_env_0123456789']);
    expect(parse(['--config', config], { PRINT_STATION_WEBHOOK_SECRET: ' ' }).secrets).toEqual(['whsec_from_file_0123456789']);
  });

  it('on the command line still work, with one warning on stderr that they show in ps (never the secret itself)', () => {
    const { secrets, lines } = parse(['--webhook-secret', 'whsec_cli1_0123456789', '--webhook-secret', 'whsec_cli2_0123456789'], {
      PRINT_STATION_WEBHOOK_SECRET: 'whsec_env_0123456789',
    });
    expect(secrets).toEqual(['whsec_cli1_0123456789', 'whsec_cli2_0123456789']);
    expect(lines).toEqual([WEBHOOK_SECRET_FLAG_WARNING]);
    expect(lines[0]).toMatch(/\(ps\)/);
    expect(lines[0]).toContain('PRINT_STATION_WEBHOOK_SECRET');
    expect(lines[0]).toContain('webhookSecrets in a --config file');
    expect(lines[0]).not.toContain('whsec_cli');
  });

  it('--help names the environment variable and --config', () => {
    expect(AGENT_USAGE).toContain('PRINT_STATION_WEBHOOK_SECRET (comma-separated for several) or webhookSecrets in --config');
  });
});
