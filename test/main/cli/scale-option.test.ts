import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_USAGE, parseAgentOptions } from '../../../src/main/cli/options';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { runCli } from '../../support/cli-run';
import { socatUnavailable } from '../../support/pty-pair';
import { ScaleSimulator } from '../../support/scale-simulator';

const CLI = join(process.cwd(), 'src', 'main', 'cli', 'agent.ts');
const KEY = 'scale-cli-key-41c9';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'print-station-scale-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const scale = (argv: string[]) => parseAgentOptions(argv, {}, () => {}).scale;

describe('--scale', () => {
  it('takes the URI from the command line or scale in --config; the command line wins; absent it is left to the saved setting', async () => {
    const config = join(dir, 'agent.json');
    await writeFile(config, JSON.stringify({ scale: 'hid:0922:8003' }));
    expect(scale([])).toBeNull();
    expect(scale(['--scale', 'serial:/dev/ttyUSB0'])).toBe('serial:/dev/ttyUSB0');
    expect(scale(['--config', config])).toBe('hid:0922:8003');
    expect(scale(['--config', config, '--scale', 'none'])).toBe('none');
  });

  it('--help lists the scale URI forms', () => {
    expect(AGENT_USAGE).toContain('--scale URI');
    expect(AGENT_USAGE).toContain('hid:VVVV:PPPP | none');
  });
});

describe.skipIf(socatUnavailable() !== null)('npm run agent -- --scale', () => {
  let sandbox: Sandbox;
  let sim: ScaleSimulator;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, apiKey: KEY });
    sim = await ScaleSimulator.start('sics', { weight: '1.000' });
  });
  afterAll(async () => {
    await sim.stop();
    await sandbox.close();
  });

  const base = () => ['--api-url', sandbox.baseUrl, '--printer', `folder:${join(dir, 'prints')}`, '--poll-interval', '0'];

  it('prints `scale: URI` once the scale answers', async () => {
    const uri = `serial:${sim.stationPath}?protocol=sics`;
    const run = await runCli(CLI, [...base(), '--data-dir', join(dir, 'a'), '--scale', uri], {
      env: { PRINT_STATION_API_KEY: KEY },
      until: /^scale: /m,
      killAfterMs: 20_000,
    });
    expect(run.stdout).toContain(`\nscale: ${uri}\n`);
    expect(run.code).toBe(0);
  });

  it('refuses a scale URI that is not one, naming the valid forms', async () => {
    const run = await runCli(CLI, [...base(), '--data-dir', join(dir, 'b'), '--scale', 'usb:scale'], {
      env: { PRINT_STATION_API_KEY: KEY },
      killAfterMs: 20_000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Scale "usb:scale" is not a valid scale URI (unknown scheme "usb")');
    expect(run.stderr).toContain('[INVALID_SCALE_URI]');
  });
});
