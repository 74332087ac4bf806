import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { splitSiteOptions } from '../../../src/main/cli/site-options';
import { parseAgentOptions } from '../../../src/main/cli/options';
import { parseSiteAddress } from '../../../src/main/site/bus/site-address';

describe('site options', () => {
  it('takes the site options off the command line and leaves the agent’s own to its parser', () => {
    const { site, rest } = splitSiteOptions([
      '--api-url',
      'http://127.0.0.1:1/external/v1',
      '--site',
      'nats://a:4222,nats://b:4222',
      '--station-name=Packing 3',
      '--default-station',
      'Packing 1',
      '--default-station',
      'Packing 2',
      '--claim-minutes',
      '10',
      '--metrics-port',
      '9100',
      '--poll-interval',
      '2',
    ]);
    expect(site).toMatchObject({
      site: ['nats://a:4222', 'nats://b:4222'],
      stationName: 'Packing 3',
      defaultStations: ['Packing 1', 'Packing 2'],
      claimMinutes: 10,
      metricsPort: 9100,
    });
    expect(rest).toEqual(['--api-url', 'http://127.0.0.1:1/external/v1', '--poll-interval', '2']);
    expect(parseAgentOptions(rest, {}).pollIntervalSeconds).toBe(2);
  });

  it('defaults: the host name, 30 claim minutes, no metrics, not in a site', () => {
    const { site } = splitSiteOptions([]);
    expect(site).toMatchObject({ site: null, stationName: hostname(), claimMinutes: 30, metricsPort: null, fallbackAfterSeconds: 120 });
  });

  it('refuses an address that is not nats://HOST:PORT, saying what to write', () => {
    expect(() => parseSiteAddress('http://a:4222')).toThrow(/must start with nats:\/\//);
    expect(() => parseSiteAddress('nats://a')).toThrow(/has no port/);
    expect(() => splitSiteOptions(['--claim-minutes', '0'])).toThrow(/--claim-minutes must be a whole number from 1/);
  });

  it('refuses at start a station name the site cannot take, saying why', () => {
    expect(() => splitSiteOptions(['--site', 'nats://a:4222', '--station-name', 'x'.repeat(400)])).toThrow(
      /--station-name cannot be used in a site: it has 400 characters; a site takes at most 100/,
    );
    expect(() => splitSiteOptions(['--site', 'nats://a:4222', '--station-name', 'a\tb'])).toThrow(/control characters/);
    // Outside a site any name does.
    expect(splitSiteOptions(['--station-name', 'x'.repeat(400)]).site.stationName).toHaveLength(400);
  });

  it('accepts nats://user:pass@host and never shows the password', () => {
    const { site } = splitSiteOptions(['--site', 'nats://admin:s3cret@a:4222']);
    expect(site.site).toEqual(['nats://admin:s3cret@a:4222']);
    expect(site.siteText).toBe('nats://admin:***@a:4222');
    expect(() => parseSiteAddress('http://admin:s3cret@a:4222')).toThrow(/http:\/\/admin:\*\*\*@a:4222/);
    expect(() => parseSiteAddress('http://admin:s3cret@a:4222')).not.toThrow(/s3cret/);
  });
});
