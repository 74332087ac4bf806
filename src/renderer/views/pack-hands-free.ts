/**
 * Pack and ship follows the scale: the weight box of the parcel being weighed shows the
 * scale's stable weight as it comes (parcel by parcel: place, stable, take off, next), and,
 * when Settings → Packing books on a stable weight, the agent's hands-free booking of this
 * draft is followed and said (the agent decides and books once, whatever windows are open).
 */
import type { HandsFreeView } from '../../shared/domain';
import type { ScaleStatus } from '../../shared/scale';
import type { UiContext } from '../context';
import { t } from '../i18n';
import type { ParcelsForm } from './pack-parcels';
import { weightWords } from './pack-parcels';

/** How often the armed draft's booking is asked after (a booking takes a second or so). */
const POLL_MS = 250;

export interface ScaleFollower {
  /** Hands the draft to the scale (again: after its parcels were saved, or a rate was chosen). */
  arm(token?: string, servicePointToken?: string): Promise<HandsFreeView | null>;
  /** The panel is gone: no more weights, no more asking. */
  dispose(): void;
}

export function followScale(
  ctx: UiContext,
  shipmentId: string,
  parcels: () => ParcelsForm | null,
  status: HTMLElement,
  onBooked: (view: HandsFreeView) => void,
): ScaleFollower {
  let cursor = 0;
  let weighed: number | null = null;
  let poll: ReturnType<typeof setInterval> | null = null;
  let stopped = false;
  let shown = false;

  const onReading = (reading: ScaleStatus): void => {
    if (status.isConnected) shown = true;
    else if (shown) return dispose();
    const form = parcels();
    if (!form) return;
    if (reading.state === 'stable' && reading.kg !== null && reading.kg > 0) {
      if (weighed !== null && reading.kg !== weighed && cursor < form.count - 1) cursor += 1;
      form.setWeight(cursor, reading.kg);
      weighed = reading.kg;
    } else if (reading.state === 'zero' && weighed !== null) {
      // The parcel came off: the next one goes into the next line.
      if (cursor < form.count - 1) cursor += 1;
      weighed = null;
    }
  };
  const unsubscribe = ctx.onScale(onReading);

  const show = (view: HandsFreeView): void => {
    const weight = view.weightsKg.map(weightWords).join(' + ');
    status.textContent =
      view.state === 'waiting'
        ? t('handsFree.waiting', { n: view.parcel + 1, count: view.parcels })
        : view.state === 'booking'
          ? t('handsFree.booking', { weight })
          : view.state === 'booked'
            ? t('handsFree.booked', { weight })
            : view.state === 'refused' && view.code === 'HANDS_FREE_NO_PACKAGE'
              ? t('handsFree.noPackage')
              : view.state === 'refused'
                ? t('handsFree.refused', { message: view.message ?? '' })
                : view.state === 'failed'
                  ? t('handsFree.failed', { message: view.message ?? '' })
                  : '';
    status.dataset['handsFree'] = view.state;
  };

  const follow = (): void => {
    if (poll) return;
    poll = setInterval(() => {
      if (stopped || !status.isConnected) return dispose();
      void ctx.api.packHandsFreeStatus({ shipmentId }).then(
        (view) => {
          if (stopped || !poll) return;
          show(view);
          if (view.state === 'booked') {
            stopPolling();
            onBooked(view);
          } else if (view.state === 'off') stopPolling();
        },
        () => undefined,
      );
    }, POLL_MS);
  };

  const stopPolling = (): void => {
    if (poll) clearInterval(poll);
    poll = null;
  };
  const dispose = (): void => {
    stopped = true;
    stopPolling();
    unsubscribe();
  };

  return {
    async arm(token, servicePointToken) {
      if (stopped) return null;
      try {
        const view = await ctx.api.packHandsFree({ shipmentId, token, servicePointToken });
        if (view.state === 'off') return view;
        show(view);
        if (view.state === 'booked') {
          stopPolling();
          onBooked(view);
        } else follow();
        return view;
      } catch {
        // Hands-free is a help, never a step: a failed call leaves the keyboard flow as it is.
        return null;
      }
    },
    dispose,
  };
}
