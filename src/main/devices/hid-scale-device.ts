/**
 * A USB HID POS scale through `node-hid` (loaded here, only when a HID scale is configured;
 * hidraw on Linux, the system's HID stack on Windows and macOS). Such a scale sends a data
 * report when its weight or status changes, and many send nothing while it holds still: the
 * latest report stays the scale's answer while the device is open. Unplugging it fails the
 * read, which settles `lost`.
 */
import type { HIDAsync } from 'node-hid';
import { SCALE_ERROR_CODES, ScaleError } from './errors';
import { decodeHidScaleReport } from './hid-pos';
import type { ScaleAnswer, ScaleDevice } from './scale-device';
import type { ScaleSample } from './scale-reading';
import type { HidScaleAddress } from './scale-uri';

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');

export async function openHidScale(address: HidScaleAddress): Promise<ScaleDevice> {
  let hid: typeof import('node-hid');
  try {
    hid = await import('node-hid');
  } catch (error) {
    throw new ScaleError(
      SCALE_ERROR_CODES.SCALE_DRIVER_UNAVAILABLE,
      `USB HID scales need the node-hid module, which did not load here: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const name = `hid:${hex4(address.vendorId)}:${hex4(address.productId)}`;
  try {
    const device = await hid.HIDAsync.open(address.vendorId, address.productId);
    return new HidScaleDevice(device, name);
  } catch (error) {
    throw new ScaleError(
      SCALE_ERROR_CODES.SCALE_OPEN_FAILED,
      `cannot open the USB scale ${name}: ${(error as Error).message} (is it plugged in, and may this user read /dev/hidraw*?)`,
      { cause: error },
    );
  }
}

class HidScaleDevice implements ScaleDevice {
  readonly lost: Promise<Error>;
  private garbageReports = 0;
  private latest: ScaleSample | null = null;
  private fresh = false;
  private notify: (() => void) | null = null;
  private gone: Error | null = null;

  constructor(
    private readonly device: HIDAsync,
    private readonly name: string,
  ) {
    device.on('data', (data: Buffer) => {
      const sample = decodeHidScaleReport(data);
      if (sample === null) {
        this.garbageReports++;
        return;
      }
      this.latest = sample;
      this.fresh = true;
      this.notify?.();
    });
    this.lost = new Promise<Error>((resolve) => {
      device.once('error', (error: Error) => {
        this.gone = new ScaleError(SCALE_ERROR_CODES.SCALE_LOST, `the USB scale ${name} went away: ${error.message}`);
        this.notify?.();
        resolve(this.gone);
      });
    });
  }

  get garbage(): number {
    return this.garbageReports;
  }

  /** A HID POS scale sends a report on every change, unasked. */
  readonly command = null;
  readonly sendsByItself = true;

  async read(deadlineMs: number): Promise<ScaleAnswer> {
    if (!this.fresh && !this.gone) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadlineMs);
        this.notify = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.notify = null;
    }
    if (this.gone) throw this.gone;
    this.fresh = false;
    if (this.latest === null) {
      throw new ScaleError(SCALE_ERROR_CODES.SCALE_TIMEOUT, `the USB scale ${this.name} sent no report within ${deadlineMs} ms`);
    }
    return { kind: 'sample', sample: this.latest };
  }

  async identify(): Promise<string | null> {
    const info = await this.device.getDeviceInfo();
    const words = [info.manufacturer, info.product, info.serialNumber ? `serial number ${info.serialNumber}` : null]
      .map((w) => w?.trim())
      .filter((w): w is string => !!w);
    return words.length > 0 ? words.join(' ') : null;
  }

  async close(): Promise<void> {
    if (this.gone) return;
    await this.device.close();
  }
}
