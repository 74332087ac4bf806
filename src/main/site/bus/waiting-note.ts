/**
 * A relay or station started before the site's NATS server is up waits for it for ever
 * (the client's first connect retries): said once, after a moment, so an operator does not
 * look at a silent process, and not said at all when the server answers at once.
 */

/** @default 2000: a server that is up answers well within it. */
export const WAITING_NOTE_AFTER_MS = 2_000;

export function waitingForSiteText(who: 'relay' | 'site', address: string): string {
  return (
    `${who}: waiting for the site's NATS server at ${address}: start it (nats-server -js) or check the address ` +
    'and the network; nothing is lost meanwhile (bookings wait with the service)'
  );
}

/** Calls `say` once if `connected` has not settled within `afterMs`. */
export function noteWhileWaiting(connected: Promise<unknown>, say: () => void, afterMs: number = WAITING_NOTE_AFTER_MS): void {
  let settled = false;
  const timer = setTimeout(() => {
    if (!settled) say();
  }, afterMs);
  timer.unref();
  const done = (): void => {
    settled = true;
    clearTimeout(timer);
  };
  connected.then(done, done);
}
