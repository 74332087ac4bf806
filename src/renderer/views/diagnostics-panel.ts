/**
 * Settings → Support: "Save diagnostics" asks the agent to write a bundle (one JSON file,
 * no secrets) into its data directory, shows where, and offers it as a download, so a
 * packer can send it to support without finding the folder.
 */
import { describeError } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';

export function createDiagnosticsPanel(ctx: UiContext): HTMLElement {
  const button = h('button', { type: 'button' }, 'Save diagnostics');
  const result = h('p', { class: 'inline-result', role: 'status' });
  let downloadUrl: string | null = null;

  button.addEventListener('click', () => {
    button.disabled = true;
    replaceChildren(result, 'Saving diagnostics…');
    ctx.api
      .saveDiagnostics({})
      .then((saved) => {
        if (downloadUrl) URL.revokeObjectURL(downloadUrl);
        downloadUrl = URL.createObjectURL(new Blob([saved.content], { type: 'application/json' }));
        const link = h('a', { href: downloadUrl, download: saved.fileName }, 'Download it');
        replaceChildren(result, `Diagnostics saved to ${saved.path}. `, link, ' and send it to support: it holds no API key or secret.');
      })
      .catch((error: unknown) => replaceChildren(result, `Could not save diagnostics: ${describeError(error)}`))
      .finally(() => {
        button.disabled = false;
      });
  });

  // In a .settings box so it looks like the form's other sections without new styles.
  return h(
    'div',
    { class: 'settings support' },
    h(
      'fieldset',
      {},
      h('legend', {}, 'Support'),
      h('p', { class: 'hint' }, 'Versions, printers, settings without secrets, job counts and the last log lines, in one file.'),
      h('div', { class: 'row' }, button, result),
    ),
  );
}
