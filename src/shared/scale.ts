/**
 * The station's scale as the UI sees it (docs/INTERFACES.md, Scales). `scaleStatus` answers a
 * ScaleStatus; `scaleDetails` adds what Settings → Scale shows; the `scale` event carries a
 * ScaleStatus on every change of state or weight.
 */
import { z } from 'zod';

export const SCALE_STATES = ['stable', 'motion', 'zero', 'under', 'over', 'offline'] as const;
export type ScaleState = (typeof SCALE_STATES)[number];

/** `kg` is a number when `stable` or `motion` (null in `motion` on a scale that does not say a moving weight), else null. */
export const scaleStatusSchema = z
  .object({
    state: z.enum(SCALE_STATES),
    kg: z.number().nullable(),
  })
  .strict();
export type ScaleStatus = z.infer<typeof scaleStatusSchema>;

/** Settings → Scale: the configured scale, its live reading and what it says about itself. */
export const scaleDetailsSchema = z
  .object({
    /** The scale URI in use (`none` when the station has none). */
    uri: z.string(),
    state: z.enum(SCALE_STATES),
    kg: z.number().nullable(),
    /** The unit the scale weighs in; null while offline or without a scale. */
    unit: z.string().nullable(),
    /** The scale's own identity (serial number, maker and model) where it reports one. */
    identity: z.string().nullable(),
    /**
     * The command the station asks the scale for weights with (MT-SICS `SIR`, `SI` or `S`); null
     * for a scale that sends by itself (continuous output, HID), and until one is chosen.
     */
    command: z.string().nullable(),
    /** Why it cannot be used, in English words, when offline or faulty; else null. */
    problem: z.string().nullable(),
    /** Lines from the scale that were not its protocol's, since the agent started. */
    garbage: z.number().int().min(0),
  })
  .strict();
export type ScaleDetails = z.infer<typeof scaleDetailsSchema>;

/** The station has no scale (`--scale none`, the default). */
export const NO_SCALE_URI = 'none';
