/**
 * The headless variant of the agent's English: the agent's messages send a desktop user to
 * a window ("Settings → Connection"), which a service has none of. The headless agent's log
 * lines, its stderr and the CLI's fatal line name the flags, environment and `--config` keys
 * instead. The UI (desktop window and the web UI alike, which has that Settings tab) words
 * the message codes itself (src/renderer/agent-words.ts) and is not affected.
 */

/** Window directions in the agent's English and what a service's admin does instead. Longest first. */
const HEADLESS_WORDS: ReadonlyArray<readonly [string, string]> = [
  [
    'connect your account in Settings → Connection, or start the demo',
    'set PRINT_STATION_API_KEY or apiKey in the --config file (and --api-url / apiUrl)',
  ],
  ['connect an account in Settings (or run the demo)', 'set PRINT_STATION_API_KEY or apiKey in the --config file'],
  ['the service address in Settings → Connection', 'the service address (--api-url, or apiUrl in the --config file)'],
  ['(Settings → Connection, or --api-url)', '(--api-url, or apiUrl in the --config file)'],
  ['check it in Settings → Connection', 'check PRINT_STATION_API_KEY / --config apiKey'],
  ['set it in Settings → Connection', 'set --api-url, or apiUrl in the --config file'],
  ['in Settings → Printers and routing', 'in --printer / --document-printer, or printer / documentPrinter in the --config file'],
  ['choose another printer in settings', 'choose another with --printer or printer in the --config file'],
];

/** `text` with every window direction replaced by the flags and config keys that do it headless. */
export function headlessWords(text: string): string {
  let out = text;
  for (const [window, headless] of HEADLESS_WORDS) if (out.includes(window)) out = out.split(window).join(headless);
  return out;
}
