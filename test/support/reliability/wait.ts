/** Polling waits for the reliability suite: the condition, and what it was, in the error. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves once `condition` holds; rejects after `timeoutMs` with `what` and the last detail. */
export async function until(
  what: string,
  condition: () => boolean | Promise<boolean>,
  {
    timeoutMs = 60_000,
    intervalMs = 50,
    detail,
  }: { timeoutMs?: number; intervalMs?: number; detail?: () => string | Promise<string> } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) {
      const extra = detail ? `: ${await detail()}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${extra}`);
    }
    await sleep(intervalMs);
  }
}
