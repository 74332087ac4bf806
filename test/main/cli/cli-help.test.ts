/**
 * The agent's command line for a service's admin (docs/INTERFACES.md): --help lists every
 * command and the default printer, advice names the environment and --config (never the
 * --api-key flag), a config file holding a secret that others can read is refused or
 * warned about with the fix, and headless lines name flags and config keys, not windows.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_COMMANDS, parseAgentOptions } from '../../../src/main/cli/options';
import { headlessWords } from '../../../src/main/headless-words';
import { createLogger } from '../../../src/main/log';
import { networkError } from '../../../src/main/api/error-mapping';
import { englishOf, plainMessage } from '../../../src/shared/agent-messages';
import { runCli } from '../../support/cli-run';
import { AGENT_CLI } from '../../support/reliability/agent-process';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'print-station-cli-help-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm run agent -- --help', () => {
  it('lists every command and names the default printer and its folder', async () => {
    const run = await runCli(AGENT_CLI, ['--help']);
    expect(run.code).toBe(0);
    for (const name of ['report', 'diagnostics', 'install-service', 'ui-address']) {
      expect(run.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    }
    for (const [usage] of AGENT_COMMANDS) expect(run.stdout).toContain(`  ${usage}`);
    expect(run.stdout).toContain('folder:./prints: PDFs in ./prints');
  });
});

describe('advice about the key', () => {
  it('a missing key names PRINT_STATION_API_KEY and --config, never the --api-key flag', async () => {
    const run = await runCli(AGENT_CLI, ['--api-url', 'http://127.0.0.1:9/external/v1', '--data-dir', join(dir, 'd')], {
      env: { PRINT_STATION_API_KEY: '' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: an API key is required: set PRINT_STATION_API_KEY, or apiKey in a --config FILE/m);
    expect(run.stderr).not.toContain('--api-key');
  });
});

describe('a config file holding a secret', () => {
  const config = async (mode: number, body: object): Promise<string> => {
    const file = join(dir, `agent-${mode.toString(8)}-${Object.keys(body).join('-')}.json`);
    await writeFile(file, JSON.stringify(body));
    await chmod(file, mode);
    return file;
  };

  it('is refused when every user can read it, naming the file and chmod 600', async () => {
    const file = await config(0o644, { apiKey: 'sk_config_secret' });
    expect(() => parseAgentOptions(['--config', file], {}, () => undefined)).toThrow(
      `--config ${file} holds apiKey and every user of this machine can read it: run chmod 600 ${file}`,
    );
    const run = await runCli(AGENT_CLI, ['--config', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`chmod 600 ${file}`);
    expect(run.stderr).not.toContain('sk_config_secret');
  });

  it('is warned about when its group can read it, and accepted private', async () => {
    const lines: string[] = [];
    const grouped = await config(0o640, { webhookSecrets: ['whsec_group_0123456789'] });
    expect(parseAgentOptions(['--config', grouped], {}, (l) => lines.push(l)).webhookSecrets).toEqual(['whsec_group_0123456789']);
    expect(lines).toEqual([
      `warning: --config ${grouped} holds webhookSecrets and its group can read it: chmod 600 ${grouped} unless that group is the agent's user alone`,
    ]);
    lines.length = 0;
    const privateFile = await config(0o600, { apiKey: 'sk_private' });
    expect(parseAgentOptions(['--config', privateFile], {}, (l) => lines.push(l)).apiKey).toBe('sk_private');
    expect(lines).toEqual([]);
  });

  it('without a secret is read whatever its mode', async () => {
    const open = await config(0o644, { printer: 'folder:/tmp/x' });
    expect(parseAgentOptions(['--config', open], {}, () => undefined).printer).toBe('folder:/tmp/x');
  });
});

describe('headless words', () => {
  it('send the admin to flags and config keys, never to a window', () => {
    const written: string[] = [];
    const log = createLogger({ write: (l) => written.push(l), timestamps: false, reword: headlessWords });
    const unreachable = networkError(
      { method: 'GET', path: '/status', requestId: null, secret: 'k' } as never,
      'https://service.example',
      Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    );
    log.error(unreachable.message);
    log.warn(englishOf(plainMessage('agent.notConnected')));
    expect(written.join('\n')).not.toMatch(/Settings/);
    expect(written[0]).toContain('the service address (--api-url, or apiUrl in the --config file)');
    expect(written[1]).toContain('set PRINT_STATION_API_KEY or apiKey in the --config file');
  });
});
