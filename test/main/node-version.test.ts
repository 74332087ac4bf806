/**
 * The Node.js versions the agent runs on (src/main/node-version.ts): the same range as
 * package.json's engines and the README, and a start on an older Node refused in one line
 * naming the supported versions.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkNodeVersion, SUPPORTED_NODE_RANGE } from '../../src/main/node-version';
import { AGENT_CLI, REPO_ROOT } from '../support/reliability/agent-process';

const packageJson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };

describe('the supported Node.js versions', () => {
  it('are the engines range of package.json and the README', () => {
    expect(SUPPORTED_NODE_RANGE).toBe(packageJson.engines.node);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain('It needs Node.js 22.13 or newer on an LTS line: 22, 24 or 26');
  });

  it('refuse a Node older than 22.13, accept 22.13, 24 and 26, and only name other lines', () => {
    for (const old of ['20.19.0', '22.12.0', '18.20.4']) {
      expect(() => checkNodeVersion(old)).toThrow(
        expect.objectContaining({
          code: 'NODE_UNSUPPORTED',
          message: expect.stringContaining('22.13 or newer on an LTS line: 22, 24 or 26'),
        }),
      );
    }
    for (const ok of ['22.13.0', '22.20.1', '24.21.0', '26.0.0']) expect(checkNodeVersion(ok)).toBeNull();
    expect(checkNodeVersion('25.1.0')).toMatch(/^warning: Node\.js 25\.1\.0 is not a tested line/);
  });

  it('stops the agent at start on an older Node, in one line, before it touches anything', async () => {
    // The agent's CLI as on Node 20.19 (process.versions.node set before it loads).
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.19.0"})',
        AGENT_CLI,
        '--help',
      ],
      {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      'error: Node.js 20.19.0 is too old: Print Station needs Node.js 22.13 or newer on an LTS line: 22, 24 or 26 ' +
        '(node --version; https://nodejs.org/en/download) [NODE_UNSUPPORTED]',
    ]);
  });
});
