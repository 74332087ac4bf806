/**
 * Packing settings of this station (Settings → Packing): the pickup rates are searched with, and
 * the shipping rules (GET /shipping-rules) applied to every rate search. Saved by Settings' one
 * Save, when changed.
 */
import type { PackSettings, ShippingRuleView } from '../../shared/domain';
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { t, tMaybe } from '../i18n';
import { PICKUP_WORDS } from '../words';

export interface PackSettingsPanel {
  readonly element: HTMLElement;
  load(): Promise<void>;
  /** Edited since loaded or saved: Settings' Save saves these too. */
  readonly changed: boolean;
  /** Saves what is shown; the result is shown in the group. Resolves false when not saved. */
  save(): Promise<boolean>;
}

export function packSettingsPanel(ctx: UiContext): PackSettingsPanel {
  const pickupRadios = (Object.keys(PICKUP_WORDS) as Array<PackSettings['pickup']>).map((value) =>
    h('input', { type: 'radio', name: 'pack-pickup', value }),
  );
  const time = h('input', { type: 'time', 'aria-label': t('packSettings.pickupTime'), step: 60 });
  const onStable = h('input', { type: 'checkbox', name: 'pack-book-on-stable-weight' });
  const rules = h('div', { class: 'pack-rules', role: 'group', 'aria-label': t('packSettings.rulesGroup') });
  const result = h('div', { class: 'save-result' });
  let changed = false;
  const group = h(
    'div',
    { class: 'pack-settings', role: 'group', 'aria-labelledby': 'pack-settings-title' },
    h('h2', { id: 'pack-settings-title' }, t('packSettings.title')),
    h(
      'fieldset',
      {},
      h('legend', {}, t('packSettings.pickup')),
      ...pickupRadios.map((radio) => h('label', { class: 'choice' }, radio, ` ${PICKUP_WORDS[radio.value as PackSettings['pickup']]}`)),
      h('label', { class: 'field' }, h('span', {}, t('packSettings.pickupTime')), time),
    ),
    h('fieldset', {}, h('legend', {}, t('packSettings.rules')), rules),
    h(
      'div',
      { class: 'field' },
      h('label', { class: 'choice' }, onStable, ` ${t('packSettings.bookOnStableWeight')}`),
      h('p', { class: 'muted small' }, t('packSettings.bookOnStableWeightHint')),
    ),
    result,
  );

  const showRules = (list: readonly ShippingRuleView[], chosen: readonly string[]): void => {
    replaceChildren(
      rules,
      ...(list.length === 0
        ? [h('p', { class: 'muted' }, t('packSettings.noRules'))]
        : list.map((r) =>
            h(
              'label',
              { class: 'choice' },
              h('input', { type: 'checkbox', value: r.id, checked: chosen.includes(r.id) }),
              ' ',
              // The rule's name is the admin's, written at the service: shown as written.
              h('span', { 'data-verbatim': '' }, r.name),
              r.type ? ` (${tMaybe(`ruleType.${r.type}`) ?? r.type}${r.enabled ? '' : t('packSettings.disabled')})` : '',
            ),
          )),
    );
  };

  const load = async (): Promise<void> => {
    try {
      const settings = await ctx.api.getPackSettings({});
      changed = false;
      for (const radio of pickupRadios) radio.checked = radio.value === settings.pickup;
      time.value = settings.pickupTime;
      onStable.checked = settings.bookOnStableWeight;
      try {
        showRules(await ctx.api.listShippingRules({}), settings.shippingRuleIds);
      } catch (error) {
        replaceChildren(rules, h('p', { class: 'muted' }, t('packSettings.rulesFailed', { error: describeError(error) })));
      }
    } catch (error) {
      replaceChildren(result, h('p', { role: 'alert', class: 'fail' }, t('packSettings.loadFailed', { error: describeError(error) })));
    }
  };

  const markChanged = (): void => {
    changed = true;
  };
  group.addEventListener('input', markChanged);
  group.addEventListener('change', markChanged);

  const save = async (): Promise<boolean> => {
    const pickup = (pickupRadios.find((r) => r.checked)?.value ?? 'next') as PackSettings['pickup'];
    const shippingRuleIds = Array.from(rules.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked'), (c) => c.value);
    try {
      const saved = await ctx.api.savePackSettings({
        pickup,
        pickupTime: time.value || undefined,
        shippingRuleIds,
        bookOnStableWeight: onStable.checked,
      });
      changed = false;
      replaceChildren(
        result,
        h(
          'p',
          { role: 'status', class: 'ok' },
          t('packSettings.saved', { pickup: PICKUP_WORDS[saved.pickup].toLowerCase(), count: saved.shippingRuleIds.length }),
        ),
      );
      return true;
    } catch (error) {
      replaceChildren(result, h('p', { role: 'alert', class: 'fail' }, t('settings.notSaved', { error: describeError(error) })));
      return false;
    }
  };
  return {
    element: group,
    load,
    save,
    get changed() {
      return changed;
    },
  };
}
