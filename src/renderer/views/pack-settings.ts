/**
 * Packing settings of this station (Settings tab): the pickup rates are searched with, and
 * the shipping rules (GET /shipping-rules) applied to every rate search.
 */
import type { PackSettings, ShippingRuleView } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { PICKUP_WORDS } from '../words';

export function packSettingsPanel(ctx: UiContext): { readonly element: HTMLElement; load(): Promise<void> } {
  const pickupRadios = (Object.keys(PICKUP_WORDS) as Array<PackSettings['pickup']>).map((value) =>
    h('input', { type: 'radio', name: 'pack-pickup', value }),
  );
  const time = h('input', { type: 'time', 'aria-label': 'Pickup time', step: 60 });
  const rules = h('div', { class: 'pack-rules', role: 'group', 'aria-label': 'Shipping rules for rate searches' });
  const result = h('div', { class: 'save-result' });
  const save = h('button', { type: 'submit' }, 'Save packing settings');
  const form = h(
    'form',
    { class: 'pack-settings', 'aria-labelledby': 'pack-settings-title' },
    h('h2', { id: 'pack-settings-title' }, 'Packing (book at this station)'),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Pickup'),
      ...pickupRadios.map((radio) => h('label', { class: 'choice' }, radio, ` ${PICKUP_WORDS[radio.value as PackSettings['pickup']]}`)),
      h('label', { class: 'field' }, h('span', {}, 'Pickup time'), time),
    ),
    h('fieldset', {}, h('legend', {}, 'Shipping rules (none chosen: the team’s enabled rules)'), rules),
    h('div', { class: 'pack-actions' }, save),
    result,
  );

  const showRules = (list: readonly ShippingRuleView[], chosen: readonly string[]): void => {
    replaceChildren(
      rules,
      ...(list.length === 0
        ? [h('p', { class: 'muted' }, 'The team has no shipping rules.')]
        : list.map((r) =>
            h(
              'label',
              { class: 'choice' },
              h('input', { type: 'checkbox', value: r.id, checked: chosen.includes(r.id) }),
              ` ${r.name}${r.type ? ` (${r.type}${r.enabled ? '' : ', disabled'})` : ''}`,
            ),
          )),
    );
  };

  const load = async (): Promise<void> => {
    try {
      const settings = await ctx.api.getPackSettings({});
      for (const radio of pickupRadios) radio.checked = radio.value === settings.pickup;
      time.value = settings.pickupTime;
      try {
        showRules(await ctx.api.listShippingRules({}), settings.shippingRuleIds);
      } catch (error) {
        replaceChildren(rules, h('p', { class: 'muted' }, `Shipping rules could not be loaded: ${describeError(error)}`));
      }
    } catch (error) {
      replaceChildren(result, h('p', { role: 'alert', class: 'fail' }, `Packing settings could not be loaded: ${describeError(error)}`));
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const pickup = (pickupRadios.find((r) => r.checked)?.value ?? 'next') as PackSettings['pickup'];
    const shippingRuleIds = Array.from(rules.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked'), (c) => c.value);
    void ctx.api
      .savePackSettings({ pickup, pickupTime: time.value || undefined, shippingRuleIds })
      .then(
        (saved) => replaceChildren(result, h('p', { role: 'status', class: 'ok' }, `Packing saved: ${PICKUP_WORDS[saved.pickup].toLowerCase()}, ${saved.shippingRuleIds.length} rule(s).`)),
        (error) => replaceChildren(result, h('p', { role: 'alert', class: 'fail' }, `Not saved: ${describeError(error)}`)),
      );
  });
  return { element: form, load };
}
