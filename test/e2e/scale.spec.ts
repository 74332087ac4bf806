/**
 * The station's scale in Chromium against the headless agent, an MT-SICS scale simulated on a
 * pseudo-terminal pair: the state bar shows it beside the printers and follows the weight live;
 * unplugged it reads Offline within 2 s and comes back by itself; Settings → Scale shows the
 * reading and the serial number the scale reports.
 */
import { socatUnavailable } from '../support/pty-pair';
import { ScaleSimulator } from '../support/scale-simulator';
import { expect, stationTest as test } from './fixtures';

test('the scale beside the printers, live; offline when unplugged and back without a restart; Settings → Scale', async ({
  page,
  station,
}) => {
  const missing = socatUnavailable();
  test.skip(missing !== null, missing ?? '');
  const sim = await ScaleSimulator.start('sics', { weight: '1.234', unit: 'kg' });
  try {
    await station.agent.agent.api.saveSettings({ scale: `serial:${sim.stationPath}` });
    await page.goto(station.url);
    const scale = page.getByRole('contentinfo', { name: 'Agent status' }).locator('.status-item.scale');
    await expect(scale).toHaveText('Scale1.234 kg');
    sim.set({ mode: 'dynamic', weight: '2.500' });
    await expect(scale).toHaveText('ScaleMoving · 2.5 kg');
    sim.set({ mode: 'stable' });
    await expect(scale).toHaveText('Scale2.5 kg');

    await sim.unplug();
    await expect(scale).toHaveText('ScaleOffline', { timeout: 2500 });
    sim.set({ weight: '0.750' });
    await sim.replug();
    await expect(scale).toHaveText('Scale0.75 kg', { timeout: 5000 });

    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Scale', exact: true }).click();
    await expect(page.getByRole('textbox', { name: 'Scale URI' })).toHaveValue(`serial:${sim.stationPath}`);
    await expect(page.locator('.scale-reading')).toHaveText('Reading: 0.75 kg');
    await expect(page.locator('.scale-identity')).toHaveText(`The scale says it is ${sim.serialNumber}`);
    await expect(page.locator('.scale-command')).toHaveText('The station asks for the weight with SIR');
  } finally {
    await sim.stop();
  }
});

test('an MT-SICS scale that answers ES to SIR and SI is asked S: weighed, moving without a weight, and said so in Settings → Scale', async ({
  page,
  station,
}) => {
  const missing = socatUnavailable();
  test.skip(missing !== null, missing ?? '');
  const sim = await ScaleSimulator.start('sics', { weight: '1.234', unit: 'kg' });
  sim.unknownCommands.add('SIR').add('SI');
  try {
    await station.agent.agent.api.saveSettings({ scale: `serial:${sim.stationPath}` });
    await page.goto(station.url);
    const scale = page.getByRole('contentinfo', { name: 'Agent status' }).locator('.status-item.scale');
    await expect(scale).toHaveText('Scale1.234 kg');
    // S answers only once the load holds still: while it moves the scale is there, its weight not said.
    sim.set({ mode: 'dynamic', weight: '2.500' });
    await expect(scale).toHaveText('ScaleMoving');
    sim.set({ mode: 'stable' });
    await expect(scale).toHaveText('Scale2.5 kg');

    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Scale', exact: true }).click();
    await expect(page.locator('.scale-reading')).toHaveText('Reading: 2.5 kg');
    await expect(page.locator('.scale-command')).toHaveText('The station asks for the weight with S');
  } finally {
    await sim.stop();
  }
});
