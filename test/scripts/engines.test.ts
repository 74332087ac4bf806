/**
 * `engines` tells the truth: every Node the project's range allows is accepted by every
 * package `npm ci` installs (so npm prints no EBADENGINE on a supported Node), and the
 * range is no stricter than the strictest of them. A dependency upgrade that raises its
 * floor fails here, naming the package, instead of as warnings on someone's first install.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface Manifest {
  /** In the lock: only an optional dependency needs it; npm skips it silently where its engines or platform do not fit. */
  readonly optional?: boolean;
  readonly engines?: { readonly node?: string };
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

const ROOT = process.cwd();
const project = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Manifest> };
const projectRange = project.engines?.node ?? '';

/** The packages whose declared Node range does not contain the whole project range. */
function outside(declared: ReadonlyArray<readonly [string, string]>): string[] {
  return declared.filter(([, range]) => !semver.subset(projectRange, range)).map(([name, range]) => `${name} (node ${range})`);
}

describe('engines.node in package.json', () => {
  it('is a valid range, and the lock file records the same', () => {
    expect(semver.validRange(projectRange)).not.toBeNull();
    expect(lock.packages['']?.engines?.node).toBe(projectRange);
  });

  it('lies within the range every installed direct dependency declares', () => {
    const direct = [...Object.keys(project.dependencies ?? {}), ...Object.keys(project.devDependencies ?? {})];
    const declared = direct.flatMap((name) => {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as Manifest;
      return manifest.engines?.node ? [[name, manifest.engines.node] as const] : [];
    });
    expect(declared.length).toBeGreaterThan(3);
    expect(outside(declared)).toEqual([]);
  });

  it('lies within the range of every package the lock file installs (what npm ci checks)', () => {
    const declared = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && !entry.optional)
      .filter(([, entry]) => typeof entry.engines?.node === 'string' && semver.validRange(entry.engines.node) !== null)
      .map(([path, entry]) => [path.replace(/^.*node_modules\//, ''), entry.engines!.node!] as const);
    expect(declared.length).toBeGreaterThan(50);
    expect(outside(declared)).toEqual([]);
  });

  it('is no stricter than needed: one minor below its lowest Node, some package would refuse', () => {
    const ranges = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && !entry.optional)
      .map(([, entry]) => entry.engines?.node)
      .filter((range): range is string => typeof range === 'string' && semver.validRange(range) !== null);
    const lowest = semver.minVersion(projectRange)!;
    expect(lowest.minor).toBeGreaterThan(0);
    const below = `${lowest.major}.${lowest.minor - 1}.0`;
    expect(ranges.filter((range) => !semver.satisfies(below, range))).not.toEqual([]);
  });
});
