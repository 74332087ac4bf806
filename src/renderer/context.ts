/** What every view shares: the client, cached settings and printers, and focus control. */
import type { AgentClient } from '../shared/agent-api';
import type { PrinterInfo, SettingsView } from '../shared/domain';
import type { ScaleStatus } from '../shared/scale';

export type TabName = 'scan' | 'queue' | 'settings' | 'end-of-day' | 'site';

export class UiContext {
  private settingsValue: SettingsView | null = null;
  private printersValue: Promise<readonly PrinterInfo[]> | null = null;
  private readonly settingsListeners = new Set<(settings: SettingsView) => void>();
  private readonly scaleListeners = new Set<(reading: ScaleStatus) => void>();

  constructor(
    readonly api: AgentClient,
    /** Puts the caret back in the scan box when the Scan view is showing. */
    readonly focusScan: () => void,
    readonly showTab: (tab: TabName) => void,
  ) {}

  get settings(): SettingsView | null {
    return this.settingsValue;
  }

  setSettings(settings: SettingsView): void {
    this.settingsValue = settings;
    for (const listener of this.settingsListeners) listener(settings);
  }

  /** Returns the unsubscribe function. */
  onSettings(listener: (settings: SettingsView) => void): () => void {
    this.settingsListeners.add(listener);
    if (this.settingsValue) listener(this.settingsValue);
    return () => {
      this.settingsListeners.delete(listener);
    };
  }

  /** A new reading of the scale (the `scale` event), for whoever shows a weight. */
  scaleReading(reading: ScaleStatus): void {
    for (const listener of [...this.scaleListeners]) listener(reading);
  }

  /** Returns the unsubscribe function. */
  onScale(listener: (reading: ScaleStatus) => void): () => void {
    this.scaleListeners.add(listener);
    return () => {
      this.scaleListeners.delete(listener);
    };
  }

  /** Printer discovery is slow-ish (lpstat): cached until asked to refresh. */
  printers(refresh = false): Promise<readonly PrinterInfo[]> {
    if (refresh || !this.printersValue) {
      this.printersValue = this.api.listPrinters({}).catch(() => {
        this.printersValue = null;
        return [];
      });
    }
    return this.printersValue;
  }
}
