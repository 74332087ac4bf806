import { describe, expect, it } from 'vitest';
import { AGENT_USAGE, API_KEY_FLAG_WARNING, parseAgentOptions } from '../../../src/main/cli/options';

describe('--api-key on the command line', () => {
  it('warns once on stderr that the key shows in ps, and names the safer ways; never prints the key', () => {
    const lines: string[] = [];
    const options = parseAgentOptions(['--api-key', 'sk_secret_123'], {}, (l) => lines.push(l));
    expect(options.apiKey).toBe('sk_secret_123');
    expect(lines).toEqual([API_KEY_FLAG_WARNING]);
    expect(lines[0]).toMatch(/ps/);
    expect(lines[0]).toContain('PRINT_STATION_API_KEY');
    expect(lines[0]).toContain('--config');
    expect(lines[0]).not.toContain('sk_secret_123');
  });

  it('says nothing when the key comes from the environment', () => {
    const lines: string[] = [];
    expect(parseAgentOptions([], { PRINT_STATION_API_KEY: 'sk_env' }, (l) => lines.push(l)).apiKey).toBe('sk_env');
    expect(lines).toEqual([]);
  });

  it('--help names the environment variable and --config as the way', () => {
    expect(AGENT_USAGE).toContain(
      '--api-key K              the API key; never printed or logged. Prefer env PRINT_STATION_API_KEY or apiKey',
    );
    expect(AGENT_USAGE).toMatch(/shows in `ps`/);
  });
});
