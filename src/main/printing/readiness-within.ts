/**
 * A printer's readiness for a list the UI is waiting on: the printer's answer if it comes
 * within a moment, else the last answer it gave. A printer that drips its answers or does
 * not answer at all never holds the bridge's printer lists up; its question goes on in the
 * background (one at a time per printer) and its answer is kept for the next list.
 */
import type { PrinterMedia } from '../../shared/domain';
import type { PrinterTarget, Readiness } from './target';

/** How long a list waits for a printer's fresh answer before it shows the last one. */
export const READINESS_WAIT_MS = 1500;

const asking = new WeakMap<PrinterTarget, { readonly question: Promise<Readiness>; readonly since: number }>();
const lastKnown = new WeakMap<PrinterTarget, Readiness>();

/**
 * The target's readiness within `waitMs` (@default READINESS_WAIT_MS): a fresh answer (or its
 * error) when it comes in time, else the last known one, else not ready "still asking". A
 * question already out is waited for only what is left of its `waitMs`, so lists asked one
 * after another while a printer drips do not each wait for it again.
 */
export async function readinessWithin(target: PrinterTarget, media: PrinterMedia, waitMs = READINESS_WAIT_MS): Promise<Readiness> {
  let pending = asking.get(target);
  if (!pending) {
    const question = target.readiness(media).then((answer) => {
      lastKnown.set(target, answer);
      return answer;
    });
    const settled = question.finally(() => asking.delete(target));
    settled.catch(() => undefined);
    pending = { question, since: performance.now() };
    asking.set(target, pending);
  }
  const { question } = pending;
  const left = Math.max(0, waitMs - (performance.now() - pending.since));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), left);
  });
  try {
    const answer = await Promise.race([question, late]);
    if (answer) return answer;
  } finally {
    clearTimeout(timer);
  }
  question.catch(() => undefined);
  return lastKnown.get(target) ?? { ready: false, detail: `the printer has not answered within ${waitMs} ms: still asking it` };
}
