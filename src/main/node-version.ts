/**
 * The Node.js lines the agent runs on: the same range as `engines` in package.json (a test
 * holds the two together) and the README's "Node version". Below 22.13 the agent refuses to
 * start, in one line naming the supported versions, rather than fail later in a way that
 * names nothing (the desktop toolchain and some dependencies need 22.13). Node 23, 25 and
 * later lines are not refused, only named as untested.
 */
import { CodedError } from './errors';

/** package.json `engines.node`. */
export const SUPPORTED_NODE_RANGE = '^22.13.0 || ^24.0.0 || ^26.0.0';
/** The same, in words for a person. */
export const SUPPORTED_NODE_WORDS = 'Node.js 22.13 or newer on an LTS line: 22, 24 or 26';

const LTS_LINES: ReadonlySet<number> = new Set([22, 24, 26]);

export class NodeVersionError extends CodedError {
  constructor(message: string) {
    super('NODE_UNSUPPORTED', message);
  }
}

/**
 * @returns a warning line for a Node outside the tested lines (23, 25, 27+), else null
 * @throws NodeVersionError below 22.13
 */
export function checkNodeVersion(version: string = process.versions.node): string | null {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (major < 22 || (major === 22 && minor < 13)) {
    throw new NodeVersionError(
      `Node.js ${version} is too old: Print Station needs ${SUPPORTED_NODE_WORDS} (node --version; https://nodejs.org/en/download)`,
    );
  }
  return LTS_LINES.has(major) ? null : `warning: Node.js ${version} is not a tested line; Print Station supports ${SUPPORTED_NODE_WORDS}`;
}
