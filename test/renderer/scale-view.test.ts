// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentInput } from '../../src/shared/agent-api';
import type { AgentStatus } from '../../src/shared/domain';
import type { ScaleDetails } from '../../src/shared/scale';
import { refreshLanguage, setLanguage } from '../../src/renderer/i18n';
import { StatusBar } from '../../src/renderer/views/status-bar';
import { SettingsPanel } from '../../src/renderer/views/settings-view';
import { context, fakeClient, printer, settings, settle } from '../support/fake-agent-client';

afterEach(() => {
  document.body.replaceChildren();
  localStorage.clear();
  refreshLanguage();
});

const BASE: AgentStatus = {
  team: 'Team',
  environment: 'sandbox',
  state: 'ok',
  paused: false,
  lastPrintAt: null,
  lastError: null,
  queued: 0,
  failed: 0,
};
const URI = 'serial:/dev/ttyUSB0?protocol=sics&baud=9600&parity=none&bits=8';

describe('the state bar and the scale', () => {
  it('shows the scale beside the printers with its weight, and follows each reading in place', () => {
    const bar = new StatusBar();
    bar.show({ ...BASE, scale: { uri: URI, state: 'stable', kg: 1.234 } });
    const item = () => bar.element.querySelector<HTMLElement>('.status-item.scale')!;
    expect(item().textContent).toBe('Scale1.234 kg');
    expect(item().dataset.scaleState).toBe('stable');
    bar.scale({ state: 'motion', kg: 1.5 });
    expect(item().textContent).toBe('ScaleMoving · 1.5 kg');
    bar.scale({ state: 'offline', kg: null });
    expect(item().textContent).toBe('ScaleOffline');
    expect(item().classList.contains('error')).toBe(true);
    bar.scale({ state: 'over', kg: null });
    expect(item().textContent).toBe('ScaleOverloaded');
  });

  it('says the weight in the UI language, and shows no scale item for a station without one', () => {
    setLanguage('sv');
    const bar = new StatusBar();
    bar.show({ ...BASE, scale: { uri: URI, state: 'stable', kg: 1.5 } });
    expect(bar.element.querySelector('.status-item.scale')?.textContent).toBe('Våg1,5 kg');
    bar.show(BASE);
    expect(bar.element.querySelector('.status-item.scale')).toBeNull();
    // A reading without a scale item changes nothing.
    bar.scale({ state: 'stable', kg: 2 });
    expect(bar.element.querySelector('.status-item.scale')).toBeNull();
  });
});

describe('Settings → Scale', () => {
  async function mount(details: ScaleDetails) {
    const saved: Array<AgentInput<'saveSettings'>> = [];
    const client = fakeClient({
      listPrinters: async () => [printer()],
      listConfiguredPrinters: async () => [],
      scaleDetails: async () => details,
      saveSettings: async (input) => {
        saved.push(input);
        return { ...settings(), scale: input.scale ?? URI };
      },
    });
    const ctx = context(client);
    const panel = new SettingsPanel(ctx);
    document.body.append(panel.element);
    panel.element.hidden = false;
    ctx.setSettings({ ...settings(), scale: URI });
    panel.show();
    panel.showSection('scale');
    await settle();
    return { panel, saved, client };
  }

  it('shows the scale URI, the live reading, the identity the scale reports and the command it is asked with', async () => {
    await mount({ uri: URI, state: 'stable', kg: 2.5, unit: 'kg', identity: 'B123456789', command: 'S', problem: null, garbage: 0 });
    expect(document.querySelector<HTMLInputElement>('#set-scale')!.value).toBe(URI);
    expect(document.querySelector('.scale-reading')?.textContent).toBe('Reading: 2.5 kg');
    expect(document.querySelector('.scale-identity')?.textContent).toBe('The scale says it is B123456789');
    expect(document.querySelector('.scale-command')?.textContent).toBe('The station asks for the weight with S');
  });

  it('says why an offline scale is offline', async () => {
    await mount({
      uri: URI,
      state: 'offline',
      kg: null,
      unit: null,
      identity: null,
      command: null,
      problem: 'the scale sent no answer for 2 s',
      garbage: 3,
    });
    expect(document.querySelector('.scale-reading')?.textContent).toBe('Reading: Offline (the scale sent no answer for 2 s)');
    expect(document.querySelector('.scale-identity')?.textContent).toBe('The scale does not say which it is.');
    expect(document.querySelector('.scale-command')?.textContent).toBe('');
  });

  it('saves a changed scale URI with the one Save, and sends no scale when it was not changed', async () => {
    const { saved } = await mount({
      uri: URI,
      state: 'stable',
      kg: 1,
      unit: 'kg',
      identity: null,
      command: null,
      problem: null,
      garbage: 0,
    });
    document.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await settle();
    expect(saved[0]).not.toHaveProperty('scale');
    const field = document.querySelector<HTMLInputElement>('#set-scale')!;
    field.value = 'hid:0922:8003';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    document.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await settle();
    expect(saved[1]?.scale).toBe('hid:0922:8003');
  });
});
