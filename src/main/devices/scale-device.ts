/**
 * The one interface every scale kind implements (serial with a protocol, USB HID POS), and
 * the opener that picks one by URI. The native port libraries load only here, and only for
 * the kind the URI names: a station without a scale never loads serialport or node-hid.
 */
import type { ScaleSample } from './scale-reading';
import type { ScaleAddress } from './scale-uri';

/** One answer of a scale to `read`. */
export type ScaleAnswer =
  | { readonly kind: 'sample'; readonly sample: ScaleSample }
  /** A well-formed answer without a weight (busy, unknown command): the scale is there. */
  | { readonly kind: 'reply'; readonly text: string };

export interface ScaleDevice {
  /**
   * One weight conversation: asks (demand protocols) and waits for the answer, or waits for
   * the next frame or report (continuous ones).
   * @throws ScaleError SCALE_TIMEOUT when nothing came within `deadlineMs`, SCALE_LOST when the port went away.
   */
  read(deadlineMs: number): Promise<ScaleAnswer>;
  /**
   * The command weights are asked with now (MT-SICS `SIR`, `SI` or `S`: Settings → Scale shows
   * it); null while none is chosen yet, and for a scale that sends by itself (continuous output, HID).
   */
  readonly command: string | null;
  /**
   * True while the scale sends weights unasked (continuous output, MT-SICS `SIR`, HID reports):
   * `read` waits for the next one, so the monitor reads again at once instead of pausing.
   */
  readonly sendsByItself: boolean;
  /** The scale's own identity (serial number, maker and model) where it reports one; null when it does not. */
  identify(deadlineMs: number): Promise<string | null>;
  /**
   * Lines (or reports) since open that were not the protocol's: noise, a wrong baud rate or
   * parity, overlong lines. `read` skips them; they are counted here and never become a weight.
   */
  readonly garbage: number;
  /** Settles once, when the port goes away under us (unplugged, closed by the system). */
  readonly lost: Promise<Error>;
  close(): Promise<void>;
}

/** Opens the device an address names. @throws ScaleError SCALE_OPEN_FAILED, SCALE_DRIVER_UNAVAILABLE */
export type ScaleOpener = (address: Exclude<ScaleAddress, { kind: 'none' }>) => Promise<ScaleDevice>;
