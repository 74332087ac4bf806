import { describe, expect, it } from 'vitest';
import { cupsJobNumber, parseLpRequestId, parseLpstatAccepting, parseLpstatPrinters } from '../../../../src/main/printing/cups/lpstat';

// Output captured from CUPS 2.4 (Debian 12) with LANG=C.
const PRINTERS = `printer closed is idle.  enabled since Sun Nov 22 02:30:13 2026
\tMaintenance
printer office disabled since Sun Nov 22 02:32:56 2026 -
\tPaper jam
\tDescription: Office printer
printer labels now printing labels-12.  enabled since Sun Nov 22 02:32:56 2026
\tForm mounted:
\tContent types: any
\tDescription: Zebra 1
\tAlerts: none
`;

describe('lpstat parsing (C locale)', () => {
  it('reads queue names, enabled state, state message and description', () => {
    expect(parseLpstatPrinters(PRINTERS)).toEqual([
      { name: 'closed', enabled: true, reason: 'Maintenance', description: null },
      { name: 'office', enabled: false, reason: 'Paper jam', description: 'Office printer' },
      { name: 'labels', enabled: true, reason: null, description: 'Zebra 1' },
    ]);
  });

  it('reads accepting state with the reason', () => {
    const out = `closed not accepting requests since Sun Nov 22 02:30:13 2026 -\n\tMaintenance\nlabels accepting requests since Sun Nov 22 02:30:13 2026\n`;
    expect([...parseLpstatAccepting(out)]).toEqual([
      ['closed', { accepting: false, reason: 'Maintenance' }],
      ['labels', { accepting: true, reason: null }],
    ]);
  });

  it('parses the job id from lp', () => {
    expect(parseLpRequestId('request id is Zebra_1-123 (1 file(s))\n')).toBe('Zebra_1-123');
    expect(parseLpRequestId('something else')).toBeNull();
    expect(cupsJobNumber('Zebra_1-123')).toBe(123);
    expect(cupsJobNumber('nonsense')).toBeNull();
  });
});
