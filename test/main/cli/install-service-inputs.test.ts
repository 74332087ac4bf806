/**
 * install-service output is safe for any input: a line break is refused with the option named,
 * systemd reads `%` and `$` literally, the plist and the WinSW XML stay well-formed (a strict
 * XML parser reads them back), and the copy-paste lines in the comments give each value back
 * whole to their shell (sh run for real; PowerShell by its quoting rules). Also the warnings
 * about a project directory the service cannot read or PrivateTmp hides.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sax from 'sax';
import { afterEach, describe, expect, it } from 'vitest';
import { installService, installServiceText, type InstallServiceContext } from '../../../src/main/cli/install-service';
import { powershellWord } from '../../../src/main/cli/service-quoting';

const linuxHere: InstallServiceContext = { platform: 'linux', execPath: '/usr/bin/node', appDir: '/srv/print-station' };
const print = (...args: string[]): string => installServiceText(['--print', ...args], linuxHere);

/** The XML as a strict parser reads it: the text of each element, in order, and every comment. */
function parseXml(text: string): { texts: Array<[string, string]>; comments: string[] } {
  const parser = sax.parser(true);
  const texts: Array<[string, string]> = [];
  const comments: string[] = [];
  const open: string[] = [];
  parser.onerror = (error) => {
    throw error;
  };
  parser.onopentag = (tag) => void open.push(tag.name);
  parser.onclosetag = () => void open.pop();
  parser.ontext = (t) => {
    if (t.trim() !== '') texts.push([open.at(-1)!, t]);
  };
  parser.oncomment = (c) => void comments.push(c);
  parser.write(text).close();
  return { texts, comments };
}

/** Runs the arguments of a copy-paste sh line through sh: what the command would get. */
function shArgs(words: string): string[] {
  return execFileSync('sh', ['-c', `printf '%s\\0' ${words}`], { encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);
}

const HOSTILE_DIR = `/data/it's "x" -- $(touch /tmp/pwned) & <b> %h ;`;

describe('install-service --print with hostile input', () => {
  it.each([
    ['user', 'x\nExecStartPre=+/bin/sh -c id'],
    ['app-dir', '/opt/ps\nExecStartPre=+/bin/sh -c id'],
    ['data-dir', '/var/lib/ps\r'],
    ['config', '/etc/ps/a.json\u2028x'],
    ['node', '/usr/bin/node\u0000'],
    ['env-file', '/etc/ps/a.env\u001b[2J'],
  ])('refuses a control character in --%s, naming the option', (option, value) => {
    for (const os of ['linux', 'macos', 'windows']) {
      expect(() => print('--os', os, `--${option}`, value)).toThrow(new RegExp(`^--${option} holds a (line break|control character)`));
    }
  });

  it('refuses a relative path and a POSIX account name no system would take', () => {
    expect(() => print('--data-dir=-/x')).toThrow('--data-dir "-/x" is not an absolute path');
    expect(() => print('--os', 'windows', '--data-dir', 'data')).toThrow('--data-dir "data" is not an absolute path');
    expect(() => print('--os', 'windows', '--data-dir', 'C:\\%TEMP%\\ps')).toThrow(/holds %NAME%/);
    expect(() => print('--user', 'a b')).toThrow(/--user "a b" is not an account name/);
    expect(() => print('--user', '%n')).toThrow(/is not an account name/);
  });

  it('writes systemd settings that systemd reads literally: % as %%, $ as $$, quotes kept inside words', () => {
    const unit = print('--app-dir', '/opt/100%s', '--data-dir', HOSTILE_DIR, '--env-file', '/etc/ps/%i.env');
    const settings = unit.split('\n').filter((l) => !l.startsWith('#'));
    expect(settings).toContain('WorkingDirectory=/opt/100%%s');
    expect(settings).toContain('EnvironmentFile=/etc/ps/%%i.env');
    expect(settings).toContain(
      'ExecStart=/usr/bin/node --max-semi-space-size=1 --v8-pool-size=1 /opt/100%%s/out/agent/agent.mjs --config /etc/print-station/agent.json ' +
        `--data-dir "/data/it's \\"x\\" -- $$(touch /tmp/pwned) & <b> %%h ;"`,
    );
    // Exactly the settings of the plain unit, none added.
    const keys = (text: string): string[] =>
      text
        .split('\n')
        .filter((l) => /^[A-Za-z]+=/.test(l))
        .map((l) => l.split('=')[0]!);
    expect(keys(unit)).toEqual(keys(print()));
  });

  it("gives each value back whole to sh from the unit's copy-paste lines", () => {
    const unit = print('--data-dir', HOSTILE_DIR, '--config', "/etc/p s/a'b.json", '--env-file', '/etc/$HOME/k.env');
    const line = (start: string): string =>
      unit
        .split('\n')
        .find((l) => l.startsWith(`#   ${start} `))!
        .slice(`#   ${start} `.length);
    expect(shArgs(line('useradd'))).toEqual(['--system', '--home-dir', HOSTILE_DIR, '--groups', 'lp', 'print-station']);
    expect(shArgs(line('install -d -m 700'))).toEqual(['-o', 'print-station', HOSTILE_DIR]);
    expect(shArgs(line('install -d -m 755'))).toEqual(['/etc/$HOME', '/etc/p s']);
    expect(shArgs(line('install -m 600').split('   #')[0]!)).toEqual(['-o', 'root', '-g', 'root', '/dev/null', '/etc/$HOME/k.env']);
    expect(shArgs(line('install -m 640').split('   #')[0]!)).toEqual([
      '-o',
      'root',
      '-g',
      'print-station',
      '/dev/null',
      "/etc/p s/a'b.json",
    ]);
  });

  it('prints a well-formed plist for any path, its sh lines giving the values back whole', () => {
    const plist = print('--os', 'macos', '--data-dir', HOSTILE_DIR, '--app-dir', '/Apps/a--b', '--user', 'ps-svc');
    const { texts, comments } = parseXml(plist);
    expect(texts.filter(([tag]) => tag === 'string').map(([, t]) => t)).toEqual([
      'com.printstation.agent',
      'ps-svc',
      '/usr/local/bin/node',
      '--max-semi-space-size=1',
      '--v8-pool-size=1',
      '/Apps/a--b/out/agent/agent.mjs',
      '--config',
      '/Library/Application Support/Print Station/agent.json',
      '--data-dir',
      HOSTILE_DIR,
      '/Apps/a--b',
      `${HOSTILE_DIR}/logs/service.out.log`,
      `${HOSTILE_DIR}/logs/service.err.log`,
    ]);
    const mkdir = comments[0]!.split('\n').find((l) => l.trim().startsWith('sudo mkdir -p '))!;
    const [first] = mkdir.trim().slice('sudo mkdir -p '.length).split(' && ');
    expect(shArgs(first!)).toEqual([HOSTILE_DIR]);
    const chown = mkdir.split(' && ')[1]!.slice('sudo chown '.length);
    expect(shArgs(chown)).toEqual(['ps-svc', HOSTILE_DIR]);
  });

  it('prints a well-formed WinSW XML for any path, its PowerShell lines quoted for PowerShell', () => {
    const dataDir = 'C:\\Data\\it\'s "x" -- $(calc) & <b> `n';
    const xml = print('--os', 'windows', '--data-dir', dataDir, '--app-dir', 'C:\\A--B', '--user', '.\\pack&er');
    const { texts, comments } = parseXml(xml);
    const text = (tag: string): string => texts.find(([t]) => t === tag)![1];
    expect(text('arguments')).toBe(
      `--max-semi-space-size=1 --v8-pool-size=1 C:\\A--B\\out\\agent\\agent.mjs --config "C:\\ProgramData\\Print Station\\agent.json" --data-dir "C:\\Data\\it's \\"x\\" -- $(calc) & <b> \`n"`,
    );
    expect(text('workingdirectory')).toBe('C:\\A--B');
    expect(text('username')).toBe('.\\pack&er');
    expect(text('logpath')).toBe(`${dataDir}\\logs`);
    // PowerShell double quotes: $ ` " escaped by a backtick, -- written -`- (the same to PowerShell).
    expect(powershellWord(dataDir)).toBe('"C:\\Data\\it\'s `"x`" -`- `$(calc) & <b> ``n"');
    expect(comments[0]).toContain(`New-Item -ItemType Directory -Force ${powershellWord(dataDir)}\n`);
    expect(comments[0]).toContain('& "C:\\A-`-B\\print-station-agent.exe" install /p');
  });
});

describe('install-service --print --os windows: the data directory for the service only', () => {
  it('gives the data directory and the config to SYSTEM, Administrators and the service account, inheritance removed', () => {
    const lines = (xml: string): string[] =>
      parseXml(xml)
        .comments[0]!.split('\n')
        .map((l) => l.trim());
    expect(lines(print('--os', 'windows'))).toEqual(
      expect.arrayContaining([
        'icacls "C:\\ProgramData\\Print Station\\data" /inheritance:r /grant:r "*S-1-5-18:(OI)(CI)F" "*S-1-5-32-544:(OI)(CI)F"',
        'icacls "C:\\ProgramData\\Print Station\\agent.json" /inheritance:r /grant:r "*S-1-5-18:F" "*S-1-5-32-544:F"   (the config holds apiKey)',
      ]),
    );
    expect(lines(print('--os', 'windows', '--user', '.\\packer', '--data-dir', 'D:\\ps'))).toEqual(
      expect.arrayContaining([
        'icacls "D:\\ps" /inheritance:r /grant:r "*S-1-5-18:(OI)(CI)F" "*S-1-5-32-544:(OI)(CI)F" "packer:(OI)(CI)M"',
        'icacls "C:\\ProgramData\\Print Station\\agent.json" /inheritance:r /grant:r "*S-1-5-18:F" "*S-1-5-32-544:F" "packer:R"   (the config holds apiKey)',
      ]),
    );
  });
});

describe('install-service warnings about this machine', () => {
  let dir = '';
  afterEach(() => {
    if (dir) {
      chmodSync(dir, 0o755);
      rmSync(dir, { recursive: true, force: true });
      dir = '';
    }
  });

  it('warns, one line each naming the fix, about a checkout the service account cannot read and one under /tmp', () => {
    dir = mkdtempSync(join(tmpdir(), 'ps-home-'));
    const appDir = join(dir, 'checkout');
    mkdirSync(join(appDir, 'out', 'agent'), { recursive: true });
    writeFileSync(join(appDir, 'out', 'agent', 'agent.mjs'), '');
    chmodSync(dir, 0o700); // a home directory closed to others
    const here: InstallServiceContext = { platform: 'linux', execPath: '/usr/bin/node', appDir };
    const { text, warnings } = installService(['--print', '--user', 'no-such-account-ps'], here);
    expect(text).toContain(`WorkingDirectory=${appDir}`);
    const underTmp = tmpdir() === '/tmp' || tmpdir().startsWith('/tmp/');
    expect(warnings).toEqual([
      ...(underTmp
        ? [
            `warning: the project directory ${appDir} is under /tmp, which the unit's PrivateTmp=true hides from the service: ` +
              'install the project elsewhere (e.g. /opt/print-station) and give --app-dir',
          ]
        : []),
      `warning: the service account no-such-account-ps cannot read the project directory ${appDir} (${dir} is mode 0700 to it): ` +
        `install the project where it can (e.g. /opt/print-station) and give --app-dir, or open it with chmod o+rx ${dir}`,
    ]);
    chmodSync(dir, 0o755);
    expect(installService(['--print', '--user', 'no-such-account-ps'], here).warnings).toHaveLength(underTmp ? 1 : 0);
  });

  it('warns about /tmp paths for a Linux unit printed elsewhere, and says nothing for the defaults', () => {
    expect(
      installService(['--print', '--os', 'linux', '--data-dir', '/var/tmp/ps'], { ...linuxHere, platform: 'darwin' }).warnings,
    ).toEqual([
      "warning: the data directory /var/tmp/ps is under /var/tmp, which the unit's PrivateTmp=true hides from the service: " +
        'keep it elsewhere (e.g. --data-dir /var/lib/print-station)',
    ]);
    expect(installService(['--print', '--os', 'linux'], { ...linuxHere, platform: 'darwin' }).warnings).toEqual([]);
    expect(installService(['--print'], linuxHere).warnings).toEqual([]);
  });
});
