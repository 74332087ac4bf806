import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installServiceText, projectDirOf, type InstallServiceContext } from '../../../src/main/cli/install-service';

const KEY = 'sk-live-install-service-7c1e';
const linuxHere: InstallServiceContext = { platform: 'linux', execPath: '/usr/local/bin/node20', appDir: '/srv/print-station' };

function lines(text: string): string[] {
  return text.split('\n').map((l) => l.trim());
}

describe('install-service --print', () => {
  it('prints a systemd unit that runs the bundled agent with --config and the key from a root-only environment file', () => {
    const unit = installServiceText(['--print', '--os', 'linux'], linuxHere);
    const l = lines(unit);
    // On this OS: this node and this project directory.
    expect(l).toContain(
      'ExecStart=/usr/local/bin/node20 --max-semi-space-size=1 --v8-pool-size=1 /srv/print-station/out/agent/agent.mjs --config /etc/print-station/agent.json --data-dir /var/lib/print-station',
    );
    expect(l).toContain('EnvironmentFile=/etc/print-station/agent.env');
    expect(l).toContain('Restart=on-failure');
    expect(l).toContain('User=print-station');
    expect(l).toContain('WorkingDirectory=/srv/print-station');
    expect(l).toContain('WantedBy=multi-user.target');
    expect(l).toContain('TimeoutStopSec=30');
    expect(unit).toContain('install -m 600 -o root -g root /dev/null /etc/print-station/agent.env');
    expect(unit).not.toMatch(/PRINT_STATION_API_KEY=\S*[^.\s]/); // only "PRINT_STATION_API_KEY=..." as an instruction
  });

  it('quotes paths with spaces for systemd and takes the options given', () => {
    const unit = installServiceText(
      [
        '--print',
        '--os',
        'linux',
        '--user',
        'packer',
        '--node',
        '/opt/node 20/bin/node',
        '--app-dir',
        '/opt/Print Station',
        '--config',
        '/etc/ps/a.json',
        '--env-file',
        '/etc/ps/key.env',
        '--data-dir',
        '/data/ps',
      ],
      linuxHere,
    );
    const l = lines(unit);
    expect(l).toContain(
      'ExecStart="/opt/node 20/bin/node" --max-semi-space-size=1 --v8-pool-size=1 "/opt/Print Station/out/agent/agent.mjs" --config /etc/ps/a.json --data-dir /data/ps',
    );
    expect(l).toContain('User=packer');
    expect(l).toContain('EnvironmentFile=/etc/ps/key.env');
  });

  it('prints a launchd plist: ProgramArguments run the bundle with --config, KeepAlive restarts it after a crash', () => {
    const plist = installServiceText(['--print', '--os', 'macos'], linuxHere);
    expect(plist).toContain(
      [
        '<key>ProgramArguments</key>',
        '  <array>',
        '    <string>/usr/local/bin/node</string>',
        '    <string>--max-semi-space-size=1</string>',
        '    <string>--v8-pool-size=1</string>',
        '    <string>/usr/local/print-station/out/agent/agent.mjs</string>',
        '    <string>--config</string>',
        '    <string>/Library/Application Support/Print Station/agent.json</string>',
        '    <string>--data-dir</string>',
        '    <string>/Library/Application Support/Print Station/data</string>',
        '  </array>',
      ].join('\n'),
    );
    expect(plist).toContain('<key>KeepAlive</key>\n  <dict>\n    <key>SuccessfulExit</key>\n    <false/>\n  </dict>');
    expect(plist).toContain('<key>RunAtLoad</key>\n  <true/>');
    expect(plist).toContain('<key>Label</key>\n  <string>com.printstation.agent</string>');
    expect(plist).toContain('<key>UserName</key>\n  <string>_printstation</string>');
    expect(plist).not.toContain('EnvironmentVariables');
  });

  it('prints a WinSW service XML: node.exe runs the bundle with --config, restarts on failure, stops gently', () => {
    const xml = installServiceText(['--print', '--os', 'windows'], linuxHere);
    const l = lines(xml);
    expect(l).toContain('<executable>C:\\Program Files\\nodejs\\node.exe</executable>');
    expect(l).toContain(
      '<arguments>--max-semi-space-size=1 --v8-pool-size=1 &quot;C:\\Program Files\\Print Station Agent\\out\\agent\\agent.mjs&quot; --config &quot;C:\\ProgramData\\Print Station\\agent.json&quot; ' +
        '--data-dir &quot;C:\\ProgramData\\Print Station\\data&quot;</arguments>',
    );
    expect(l).toContain('<id>print-station-agent</id>');
    expect(l).toContain('<onfailure action="restart" delay="10 sec"/>');
    expect(l).toContain('<stoptimeout>30 sec</stoptimeout>');
    expect(l).toContain('<startmode>Automatic</startmode>');
    expect(xml).not.toContain('<serviceaccount>');
    expect(xml).not.toContain('<env ');
    const asUser = installServiceText(['--print', '--os', 'windows', '--user', '.\\packer'], linuxHere);
    expect(asUser).toContain('<serviceaccount>\n    <username>.\\packer</username>');
    expect(asUser).toContain('install /p');
  });

  it("uses this machine's OS when --os is not given", () => {
    expect(installServiceText(['--print'], linuxHere)).toContain('[Service]');
    expect(installServiceText(['--print'], { platform: 'darwin', execPath: '/opt/homebrew/bin/node', appDir: '/Users/p/ps' })).toContain(
      '<string>/opt/homebrew/bin/node</string>\n    <string>--max-semi-space-size=1</string>\n    <string>--v8-pool-size=1</string>\n    <string>/Users/p/ps/out/agent/agent.mjs</string>',
    );
    expect(installServiceText(['--print'], { platform: 'win32', execPath: 'D:\\node\\node.exe', appDir: 'D:\\ps' })).toContain(
      '<executable>D:\\node\\node.exe</executable>',
    );
  });

  it('refuses without --print, an unknown OS, and any attempt to put the key in', () => {
    expect(() => installServiceText([], linuxHere)).toThrow(/only prints the definition: add --print/);
    expect(() => installServiceText(['--print', '--os', 'beos'], linuxHere)).toThrow('--os must be linux, macos or windows, got "beos"');
    expect(() => installServiceText(['--print', '--api-key', KEY], linuxHere)).toThrow(/never writes the API key/);
  });

  it('finds the project directory from the bundle or the source', () => {
    expect(projectDirOf('/srv/ps/out/agent/agent.mjs', '/tmp')).toBe('/srv/ps');
    expect(projectDirOf('/srv/ps/src/main/cli/agent.ts', '/tmp')).toBe('/srv/ps');
    expect(projectDirOf(undefined, '/tmp')).toBe('/tmp');
  });
});

describe('npm run agent -- install-service --print (the real CLI)', () => {
  it("prints each OS's definition with no key in it, even with the key in the environment", async () => {
    for (const os of ['linux', 'macos', 'windows']) {
      const run = await runCli(['install-service', '--print', '--os', os], { PRINT_STATION_API_KEY: KEY });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('out/agent/agent.mjs'.replaceAll('/', os === 'windows' ? '\\' : '/'));
      expect(run.stdout + run.stderr).not.toContain(KEY);
    }
    const here = await runCli(['install-service', '--print', '--os', 'linux'], {});
    // On this machine the unit names this node and this checkout.
    expect(here.stdout).toContain(
      `ExecStart=${process.execPath} --max-semi-space-size=1 --v8-pool-size=1 ${join(process.cwd(), 'out', 'agent', 'agent.mjs')} --config`,
    );
  });

  it('says what to do without --print, and exits non-zero', async () => {
    const run = await runCli(['install-service'], {});
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('install-service only prints the definition: add --print');
    expect(run.stdout).toBe('');
  });
});

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
  return new Promise((resolve) => {
    const child = spawn(tsx, [join(process.cwd(), 'src', 'main', 'cli', 'agent.ts'), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
