/**
 * Electron main entry (electron.vite.config.ts builds it to out/main/index.js).
 * `npm start` runs it on a machine with the Electron binary.
 */
import { createAgent } from '../agent/create-agent';
import { DemoMode } from '../demo/demo-mode';
import { createDesktopLogger, runDesktopApp } from './desktop-app';

const logger = createDesktopLogger();

void runDesktopApp({
  createAgent,
  logger,
  // The first-run "Try the demo": the embedded sandbox loads only when the user asks for it.
  demo: new DemoMode(logger),
  // The first-run screen (connect your account / try the demo) replaces this.
  defaultApiUrl: process.env.PRINT_STATION_API_URL ?? 'http://127.0.0.1/external/v1',
}).catch((error: unknown) => {
  logger.error(`app: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
