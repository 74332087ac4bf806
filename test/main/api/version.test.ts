import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { CLIENT_VERSION } from '../../../src/main/api/version';

it('the User-Agent version follows package.json', async () => {
  const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  expect(CLIENT_VERSION).toBe(pkg.version);
});
