import { describe, expect, it } from 'vitest';
import {
  editedSchema,
  moveRule,
  readJson,
  refusedField,
  renamePrinter,
  setMedia,
  toEdited,
  toForm,
  validate,
} from '../../src/renderer/views/printers-form-model';

const ROUTING = {
  printers: [
    { name: 'Zebra bench 1', uri: 'cups:Zebra1', media: '4x6in', fallback: { printer: 'Office', auto: true } },
    { name: 'Office', uri: 'cups:Office', media: 'a4' },
    { name: 'Letter sheets', uri: 'cups:Sheets', media: 'letter', layout: '2x2' },
  ],
  rules: [
    { carriers: ['dhl'], documentTypes: ['label'], printer: 'Zebra bench 1' },
    { carriers: ['Bring'], printer: 'Letter sheets' },
  ],
  defaults: { customsinvoice: 'Letter sheets' },
};

const problems = (form: ReturnType<typeof toForm>) => validate(form).map((p) => [p.field, p.key, p.params ?? {}]);

describe('printers form model', () => {
  it('reads the documented routing into rows and writes back what the agent stores', () => {
    const form = toForm(ROUTING);
    expect(form.printers[0]).toEqual({
      name: 'Zebra bench 1',
      uri: 'cups:Zebra1',
      media: 'label',
      layout: null,
      fallback: 'Office',
      fallbackAuto: true,
    });
    expect(form.printers[2]!.layout).toBe('2x2');
    expect(form.rules[1]).toEqual({ documentTypes: [], carriers: ['Bring'], printer: 'Letter sheets' });
    const edited = toEdited(form);
    expect(edited).toEqual({
      printers: [
        { name: 'Zebra bench 1', uri: 'cups:Zebra1', media: 'label', fallback: { printer: 'Office', auto: true } },
        { name: 'Office', uri: 'cups:Office', media: 'a4' },
        { name: 'Letter sheets', uri: 'cups:Sheets', media: 'letter', layout: '2x2' },
      ],
      rules: [
        { documentTypes: ['label'], carriers: ['dhl'], printer: 'Zebra bench 1' },
        { documentTypes: [], carriers: ['Bring'], printer: 'Letter sheets' },
      ],
      defaults: { customsinvoice: 'Letter sheets' },
    });
    expect(editedSchema.safeParse(edited).success).toBe(true);
    expect(toEdited(toForm(edited))).toEqual(edited);
    expect(validate(form)).toEqual([]);
  });

  it('leaves out unset defaults and fallbacks, and trims names and URIs', () => {
    const form = toForm({ printers: [{ name: ' Z ', uri: ' cups:Z ', media: 'label' }], defaults: { waybill: 'Z' } });
    form.defaults.waybill = '';
    form.defaults.label = 'Z';
    expect(toEdited(form)).toEqual({ printers: [{ name: 'Z', uri: 'cups:Z', media: 'label' }], rules: [], defaults: { label: 'Z' } });
  });

  it('names empty and duplicate names, a missing printer, and a sheet layout on label stock', () => {
    const form = toForm({
      printers: [
        { name: '', uri: 'cups:A', media: 'label' },
        { name: 'Office', uri: '', media: 'a4' },
        { name: 'Office', uri: 'cups:B', media: '4x4in', layout: '2x2' },
      ],
    });
    expect(problems(form)).toEqual([
      ['printers.0.name', 'pf.err.nameEmpty', {}],
      ['printers.1.device', 'pf.err.noDevice', {}],
      ['printers.2.name', 'pf.err.nameTaken', { name: 'Office' }],
      ['printers.2.layout', 'pf.err.layoutOnLabels', {}],
    ]);
    setMedia(form.printers[2]!, 'letter');
    expect(form.printers[2]!.layout).toBe('2x2');
    setMedia(form.printers[2]!, 'label');
    expect(form.printers[2]!.layout).toBeNull();
  });

  it('flags a rule, default or fallback naming a removed printer, and a fallback to label stock; a URI is fine', () => {
    const form = toForm(ROUTING);
    form.printers.splice(2, 1); // Letter sheets gone
    form.rules.push(
      { documentTypes: ['waybill'], carriers: [], printer: 'cups:Elsewhere' },
      { documentTypes: [], carriers: [], printer: '' },
    );
    form.printers[0]!.fallback = 'Zebra bench 1';
    expect(problems(form)).toEqual([
      ['printers.0.fallback', 'pf.err.fallbackLabels', { name: 'Zebra bench 1' }],
      ['rules.1.printer', 'pf.err.ruleGone', { name: 'Letter sheets' }],
      ['rules.3.printer', 'pf.err.ruleNoPrinter', {}],
      ['defaults.customsinvoice', 'pf.err.defaultGone', { name: 'Letter sheets' }],
    ]);
    form.printers[0]!.fallback = 'Gone';
    expect(problems(form)[0]).toEqual(['printers.0.fallback', 'pf.err.fallbackGone', { name: 'Gone' }]);
  });

  it('a renamed printer takes its rules, defaults and fallbacks along', () => {
    const form = toForm(ROUTING);
    renamePrinter(form, 1, 'Office A4');
    renamePrinter(form, 2, 'Sheets');
    expect(form.printers[0]!.fallback).toBe('Office A4');
    expect(form.rules.map((r) => r.printer)).toEqual(['Zebra bench 1', 'Sheets']);
    expect(form.defaults).toEqual({ customsinvoice: 'Sheets' });
    // A name another printer still carries is not moved away from it.
    const twice = toForm({ printers: [ROUTING.printers[1], ROUTING.printers[1]], rules: [{ printer: 'Office' }] });
    renamePrinter(twice, 0, 'Office 2');
    expect(twice.rules[0]!.printer).toBe('Office');
  });

  it('moves rules up and down within the list', () => {
    const form = toForm(ROUTING);
    expect(moveRule(form, 1, -1)).toBe(0);
    expect(form.rules.map((r) => r.printer)).toEqual(['Letter sheets', 'Zebra bench 1']);
    expect(moveRule(form, 0, -1)).toBe(0);
    expect(moveRule(form, 1, 1)).toBe(1);
    expect(form.rules.map((r) => r.printer)).toEqual(['Letter sheets', 'Zebra bench 1']);
  });

  it('reads JSON into rows, saying where it is wrong', () => {
    expect(readJson('{ "printers": [')).toMatchObject({ ok: false, path: null });
    expect(readJson('{"printers":[{"name":"Z","uri":"cups:Z","media":"roll"}]}')).toMatchObject({ ok: false, path: 'printers.0.media' });
    expect(readJson('{"routes":[]}')).toMatchObject({ ok: false, path: '' });
    const read = readJson(JSON.stringify(ROUTING));
    expect(read.ok && read.form.printers.map((p) => p.name)).toEqual(['Zebra bench 1', 'Office', 'Letter sheets']);
  });

  it('maps the field an agent refusal names to the form field', () => {
    const setting = (path: string) => `Setting "${path}" is invalid: nope. Correct it and save again.`;
    expect(refusedField(setting('routing.rules.0.printer'))).toBe('rules.0.printer');
    expect(refusedField(setting('routing.printers'))).toBe('printers');
    expect(refusedField(setting('routing.printers.1.uri'))).toBe('printers.1.uri');
    expect(refusedField(setting('routing.printers.0.fallback.printer'))).toBe('printers.0.fallback');
    expect(refusedField(setting('routing.defaults.customsinvoice'))).toBe('defaults.customsinvoice');
    expect(refusedField('Invalid input for saveSettings: field "routing.printers.2.name": Too small')).toBe('printers.2.name');
    expect(refusedField(setting('apiUrl'))).toBeNull();
    expect(refusedField('The service is unreachable.')).toBeNull();
  });
});
