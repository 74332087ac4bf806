/**
 * Settings → Support: "Save diagnostics" asks the agent to write a bundle (one JSON file,
 * no secrets) into its data directory, shows where, and offers it as a download, so a
 * packer can send it to support without finding the folder.
 */
import { describeError } from '../bridge/agent-call-error';
import { openUiAddress } from '../bridge/token';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { t } from '../i18n';

export function createDiagnosticsPanel(ctx: UiContext): HTMLElement {
  const button = h('button', { type: 'button' }, t('diagnostics.save'));
  const result = h('p', { class: 'inline-result', role: 'status' });
  let downloadUrl: string | null = null;

  button.addEventListener('click', () => {
    button.disabled = true;
    replaceChildren(result, t('diagnostics.saving'));
    ctx.api
      .saveDiagnostics({})
      .then((saved) => {
        if (downloadUrl) URL.revokeObjectURL(downloadUrl);
        downloadUrl = URL.createObjectURL(new Blob([saved.content], { type: 'application/json' }));
        const link = h('a', { href: downloadUrl, download: saved.fileName }, t('diagnostics.download'));
        replaceChildren(result, t('diagnostics.savedTo', { path: saved.path }), link, t('diagnostics.sendIt'));
      })
      .catch((error: unknown) => replaceChildren(result, t('diagnostics.failed', { error: describeError(error) })))
      .finally(() => {
        button.disabled = false;
      });
  });

  // The web UI only (the desktop window has no address): a new token for the headless agent's UI.
  const addressRow = window.printStation ? null : createUiAddressRow(ctx);

  // In a .settings box so it looks like the form's other sections without new styles.
  return h(
    'div',
    { class: 'settings support' },
    h(
      'fieldset',
      {},
      h('legend', {}, t('diagnostics.legend')),
      h('p', { class: 'hint' }, t('diagnostics.hint')),
      h('div', { class: 'row' }, button, result),
      ...(addressRow ?? []),
    ),
  );
}

/** "New UI address": rotateUiAddress, then this tab opens the new address (older bookmarks and tabs stop working). */
function createUiAddressRow(ctx: UiContext): HTMLElement[] {
  const rotate = h('button', { type: 'button' }, t('uiAddress.rotate'));
  const result = h('p', { class: 'inline-result', role: 'status' });
  rotate.addEventListener('click', () => {
    rotate.disabled = true;
    ctx.api
      .rotateUiAddress({})
      .then(({ url }) => openUiAddress(url))
      .catch((error: unknown) => {
        replaceChildren(result, t('uiAddress.failed', { error: describeError(error) }));
        rotate.disabled = false;
      });
  });
  // "Bookmark it" only where the address lasts: a fresh demo, or a port chosen at random, makes a new one at each start.
  const hint = h('p', { class: 'hint' }, t('uiAddress.hint'));
  ctx.onSettings((settings) => {
    hint.textContent = settings.uiAddressLasts === false ? t('uiAddress.hintThisRun') : t('uiAddress.hint');
  });
  return [hint, h('div', { class: 'row' }, rotate, result)];
}
