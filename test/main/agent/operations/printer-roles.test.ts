import { describe, expect, it } from 'vitest';
import { printerRoles } from '../../../../src/main/agent/operations/printer-roles';

const routing = { labelPrinter: 'cups:Zebra', documentPrinter: 'cups:Office' };

describe('printerRoles', () => {
  it('takes the label and document printer settings at their word', () => {
    expect(printerRoles(routing, 'cups:Zebra', 'label')).toEqual(['label']);
    expect(printerRoles(routing, 'cups:Office', 'a4')).toEqual(['document']);
  });

  it('gives one printer named by both settings both roles (the demo folder)', () => {
    expect(printerRoles({ labelPrinter: 'folder:./out', documentPrinter: 'folder:./out' }, 'folder:./out', 'label')).toEqual([
      'label',
      'document',
    ]);
  });

  it('keeps a document printer on label stock a document printer, and a label printer on sheets a label printer', () => {
    // Labels go to the label printer and documents to the document printer whatever they hold
    // (routing.ts): the media does not add the other role.
    expect(printerRoles(routing, 'cups:Office', 'label')).toEqual(['document']);
    expect(printerRoles(routing, 'cups:Zebra', 'a4')).toEqual(['label']);
  });

  it('judges a printer neither setting names by its media', () => {
    expect(printerRoles(routing, 'cups:Rules4x6', '100x150mm')).toEqual(['label']);
    expect(printerRoles(routing, 'cups:RulesLetter', 'letter')).toEqual(['document']);
  });
});
