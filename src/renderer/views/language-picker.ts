/**
 * Settings → Language: the UI's language, "as on this computer" (navigator.languages) or one
 * of ours. Kept on this computer only (localStorage): each station's packer reads their own.
 * Each language is named in its own words, so it can be found whatever the UI shows now.
 */
import { h, option } from '../dom';
import { LANGUAGES, LANGUAGE_NAMES, isLanguage, setLanguage, storedLanguage, systemLanguage, t } from '../i18n';

export const LANGUAGE_SELECT_ID = 'set-language';

export function createLanguagePicker(): HTMLElement {
  const chosen = storedLanguage();
  const auto = option('', t('language.auto', { language: LANGUAGE_NAMES[systemLanguage()] }), chosen === null);
  const select = h('select', { id: LANGUAGE_SELECT_ID, name: 'language' }, auto);
  for (const language of LANGUAGES) {
    const item = option(language, LANGUAGE_NAMES[language], chosen === language);
    item.lang = language;
    select.append(item);
  }
  select.value = chosen ?? '';
  select.addEventListener('change', () => setLanguage(isLanguage(select.value) ? select.value : null));
  // In a .settings box so it looks like the form's other sections without new styles.
  return h(
    'div',
    { class: 'settings language' },
    h(
      'fieldset',
      {},
      h('legend', {}, t('language.legend')),
      h(
        'div',
        { class: 'field' },
        h('label', { for: LANGUAGE_SELECT_ID }, t('language.label')),
        select,
        h('span', { class: 'hint' }, t('language.hint')),
      ),
    ),
  );
}
