/**
 * Parsers for `lpstat` output in the C locale (the agent always runs it with LANG=C).
 */

export interface LpstatQueue {
  readonly name: string;
  readonly enabled: boolean;
  /** The indented line under the printer line: why it is disabled, or an operator message. */
  readonly reason: string | null;
  readonly description: string | null;
}

/** `lpstat -p [-l]`: one entry per `printer NAME ...` line. */
export function parseLpstatPrinters(stdout: string): LpstatQueue[] {
  const queues: Array<{ name: string; enabled: boolean; reason: string | null; description: string | null }> = [];
  let current: (typeof queues)[number] | null = null;
  for (const line of stdout.split('\n')) {
    // `printer Q is idle.`, `printer Q now printing Q-12.`, `printer Q disabled since ...`
    const head = /^printer (\S+) (is |now |disabled since)/.exec(line);
    if (head) {
      current = { name: head[1]!, enabled: head[2] !== 'disabled since', reason: null, description: null };
      queues.push(current);
      continue;
    }
    if (!current || !line.startsWith('\t')) continue;
    const description = /^\tDescription: ?(.*)$/.exec(line);
    if (description) current.description = description[1]!.trim() || null;
    // The first indented line (without a "Key:") is the printer-state-message.
    else if (current.reason === null && !/^\t\S[^:]*:( |$)/.test(line) && line.trim() !== '') current.reason = line.trim();
  }
  return queues;
}

/** `lpstat -a`: queue name → accepting, with the reason when not. */
export function parseLpstatAccepting(stdout: string): Map<string, { accepting: boolean; reason: string | null }> {
  const result = new Map<string, { accepting: boolean; reason: string | null }>();
  let last: string | null = null;
  for (const line of stdout.split('\n')) {
    const m = /^(\S+) (not accepting|accepting) requests/.exec(line);
    if (m) {
      last = m[1]!;
      result.set(last, { accepting: m[2] === 'accepting', reason: null });
    } else if (last && line.startsWith('\t') && line.trim()) {
      const entry = result.get(last)!;
      if (!entry.accepting && entry.reason === null) result.set(last, { accepting: false, reason: line.trim() });
    }
  }
  return result;
}

/** `request id is QUEUE-123 (1 file(s))` → `QUEUE-123`. */
export function parseLpRequestId(stdout: string): string | null {
  return /request id is (\S+-\d+)/.exec(stdout)?.[1] ?? null;
}

/** `QUEUE-123` → 123. */
export function cupsJobNumber(spoolerJobId: string): number | null {
  const m = /-(\d+)$/.exec(spoolerJobId);
  return m ? Number(m[1]) : null;
}
