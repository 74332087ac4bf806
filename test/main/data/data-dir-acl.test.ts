/**
 * Windows data at rest, by inputs and outputs (Windows cannot run here): the start-up check
 * runs Windows PowerShell by its full path with the fixed Get-Acl script and the directory
 * only in the environment, and warns in one line with the icacls fix when anyone but SYSTEM,
 * Administrators and the service account may open the data directory.
 */
import { promises as fs, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataDirAclArgs, dataDirAclWarning, GET_DATA_DIR_ACL_SCRIPT } from '../../../src/main/data-dir-acl';
import type { ExecFileRunner } from '../../../src/main/process/exec';
import { FAKE_POWERSHELL, fakePowershell, type FakePowershell } from '../../support/fake-powershell';

const DIR = 'C:\\ProgramData\\Print Station\\data';
const SERVICE = 'S-1-5-21-1004336348-1177238915-682003330-1001';

describe('the data directory ACL check at start (Windows)', () => {
  let ps: FakePowershell;
  beforeEach(async () => {
    ps = await fakePowershell();
  });
  afterEach(async () => {
    await fs.rm(ps.dir, { recursive: true, force: true });
  });

  async function reading(rules: Array<{ sid: string; allow?: boolean; inherited?: boolean }>): Promise<void> {
    const file = path.join(ps.dir, 'acl.json');
    const json = { me: SERVICE, rules: rules.map((r) => ({ sid: r.sid, allow: r.allow ?? true, inherited: r.inherited ?? false })) };
    writeFileSync(file, JSON.stringify(json));
    await ps.setState({ acl: file });
  }
  const check = (): Promise<string | null> =>
    dataDirAclWarning({ dataDir: DIR, platform: 'win32', powershellPath: FAKE_POWERSHELL, env: ps.env });

  it('says nothing for a directory kept to SYSTEM, Administrators and the service account', async () => {
    await reading([{ sid: 'S-1-5-18' }, { sid: 'S-1-5-32-544' }, { sid: SERVICE }, { sid: 'S-1-3-0', inherited: true }]);
    expect(await check()).toBeNull();
    expect(ps.calls()).toEqual([
      { argv: ['-NoProfile', '-NonInteractive', '-Command', GET_DATA_DIR_ACL_SCRIPT], printer: null, dataDir: DIR, kind: 'acl' },
    ]);
  });

  it("warns in one line, naming the icacls fix, when ProgramData's Users read is inherited", async () => {
    await reading([
      { sid: 'S-1-5-18', inherited: true },
      { sid: 'S-1-5-32-544', inherited: true },
      { sid: 'S-1-5-32-545', inherited: true },
      { sid: 'S-1-1-0', allow: false },
    ]);
    expect(await check()).toBe(
      `warning: the data directory ${DIR} is open to Users (inherited): it holds the ledger, the logs and the UI's token, ` +
        'so keep it to the service account and Administrators; in an elevated PowerShell: ' +
        `icacls "${DIR}" /inheritance:r /grant:r "*S-1-5-18:(OI)(CI)F" "*S-1-5-32-544:(OI)(CI)F" "*${SERVICE}:(OI)(CI)M"`,
    );
  });

  it('warns when the ACL cannot be read, and never on other systems', async () => {
    await ps.setState({ fail: { code: 1, stderr: 'Get-Acl : Attempted to perform an unauthorized operation.\r\n' } });
    expect(await check()).toMatch(
      /^warning: could not read who may open the data directory .* \(Get-Acl : Attempted to perform an unauthorized operation\.\); check it is/,
    );
    expect(await dataDirAclWarning({ dataDir: '/var/lib/ps', platform: 'linux', powershellPath: FAKE_POWERSHELL, env: ps.env })).toBeNull();
  });

  it('runs Windows PowerShell by its full path under SystemRoot', async () => {
    const ran: string[] = [];
    const exec: ExecFileRunner = async (file) => (
      ran.push(file),
      { code: 0, stdout: JSON.stringify({ me: SERVICE, rules: [] }), stderr: '' }
    );
    await dataDirAclWarning({ dataDir: DIR, platform: 'win32', env: { SystemRoot: 'C:\\Windows', PATH: '.' }, exec });
    expect(ran).toEqual(['C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe']);
  });

  it('gives LocalSystem no second grant', () => {
    expect(dataDirAclArgs(DIR, '*S-1-5-18')).toEqual([DIR, '/inheritance:r', '/grant:r', '*S-1-5-18:(OI)(CI)F', '*S-1-5-32-544:(OI)(CI)F']);
  });
});
