/**
 * The scanner test sheet (Settings → Scanner): Code 128 barcodes of test codes, one ending in
 * nothing, one in Tab, one in CR, one in CR+LF, to check at the bench how the scanner ends a
 * code and which keyboard layout it types in. Scanned into the Scan box, a test code is answered
 * by the station itself (see `scannerTestWords`), without asking the agent.
 */
import { h, replaceChildren } from '../dom';
import { t, type MessageKey } from '../i18n';

/** The test codes, each with what its barcode adds after the text. */
export const SCANNER_TEST_CODES: ReadonlyArray<{ readonly text: string; readonly suffix: string; readonly words: MessageKey }> = [
  { text: 'PS-TEST-1', suffix: '', words: 'scannerTest.ends.nothing' },
  { text: 'PS-TEST-2', suffix: '\t', words: 'scannerTest.ends.tab' },
  { text: 'PS-TEST-3', suffix: '\r', words: 'scannerTest.ends.cr' },
  { text: 'PS-TEST-4', suffix: '\r\n', words: 'scannerTest.ends.crlf' },
];

/** bwip-js's `parse` escapes: `^009` is Tab, `^013` CR, `^010` LF. */
function bwipText(text: string, suffix: string): string {
  return text + [...suffix].map((ch) => `^${String(ch.charCodeAt(0)).padStart(3, '0')}`).join('');
}

const TEST_CODE = /^PS([-+/])TEST\1([1-4])$/i;

/**
 * What the Scan view says when a test code was scanned, or null for any other scan. A test code
 * whose dashes came out as `+` or `/` was typed in another keyboard layout than the computer's.
 */
export function scannerTestWords(scan: string): string | null {
  const match = TEST_CODE.exec(scan.replace(/[\s\p{Cc}]/gu, ''));
  if (!match) return null;
  const code = match[0].toUpperCase();
  if (match[1] === '+') return t('scannerTest.read.usOnNordic', { code });
  if (match[1] === '/') return t('scannerTest.read.nordicOnUs', { code });
  return t('scannerTest.read.ok', { code });
}

/** The Settings section: a button that shows the sheet, which then prints with the page. */
export function scannerTestSection(): HTMLElement {
  const sheet = h('div', { class: 'scanner-test-sheet', id: 'scanner-test-sheet', hidden: true });
  const show = h('button', { type: 'button', 'aria-controls': 'scanner-test-sheet' }, t('scannerTest.show'));
  const print = h('button', { type: 'button', class: 'primary', hidden: true }, t('scannerTest.print'));
  show.addEventListener('click', () => {
    show.disabled = true;
    void renderSheet(sheet).then(
      () => {
        sheet.hidden = false;
        show.hidden = true;
        print.hidden = false;
      },
      () => {
        show.disabled = false;
      },
    );
  });
  print.addEventListener('click', () => {
    // Only the sheet prints (styles.css, @media print).
    document.body.classList.add('printing-scanner-sheet');
    window.addEventListener('afterprint', () => document.body.classList.remove('printing-scanner-sheet'), { once: true });
    window.print();
  });
  return h(
    'section',
    { class: 'settings-section scanner-test', 'aria-labelledby': 'scanner-test-heading' },
    h('h3', { id: 'scanner-test-heading' }, t('scannerTest.heading')),
    h('p', { class: 'hint' }, t('scannerTest.hint')),
    h('div', { class: 'actions' }, show, print),
    sheet,
  );
}

async function renderSheet(sheet: HTMLElement): Promise<void> {
  // Loaded only when the sheet is asked for, and only its Code 128 encoder and SVG drawing:
  // the whole of bwip-js (every symbology, ~1 MB) was the UI's one oversized chunk.
  const { code128, drawingSVG } = await import('bwip-js/browser');
  const items = SCANNER_TEST_CODES.map(({ text, suffix, words }) => {
    const svg = code128(
      { bcid: 'code128', text: bwipText(text, suffix), parse: true, scale: 2, height: 12, includetext: false },
      drawingSVG(),
    );
    return h(
      'figure',
      { class: 'test-code' },
      h('img', { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, alt: `${text} ${t(words)}`, 'data-code': text }),
      h('figcaption', {}, h('strong', {}, text), ' ', t(words)),
    );
  });
  replaceChildren(sheet, h('h4', {}, t('scannerTest.sheetTitle')), h('p', {}, t('scannerTest.sheetHint')), ...items);
}
