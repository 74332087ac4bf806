/**
 * When a scan is complete. Keyboard-wedge scanners end a code with whatever they are set up
 * to send: Enter, Tab, CR, CR+LF, or nothing at all. The scan box takes each of them:
 *
 * - Enter (CR and LF arrive as Enter too) submits the form as a person's Enter does; the
 *   second half of a CR+LF lands on the box just emptied and is swallowed, not called empty.
 * - Tab, pressed in a non-empty box, is a suffix: it looks up instead of moving focus away
 *   (where the next scan would be appended to the code still in the box).
 * - Nothing: a fast burst of keys followed by a short pause is a scan. People type far slower
 *   than a scanner, so their typing waits for Enter as before.
 *
 * A burst that starts after a pause replaces what was in the box before it (text a person left
 * there, or a scan without a suffix that was still being waited on): the next scan replaces the
 * box's text instead of being appended to it.
 */

export interface ScanSuffixOptions {
  /**
   * Keys closer together than this belong to one scanner burst. Scanners send a key every
   * 1–20 ms; a busy computer can stretch that, and people rarely keep up 80 ms for four keys.
   * @default 80
   */
  readonly burstGapMs?: number;
  /**
   * A burst followed by this much quiet is a complete scan without a suffix.
   * @default 300
   */
  readonly quietMs?: number;
  /**
   * Shortest burst taken as a scan: the service's references and tracking numbers are longer.
   * @default 4
   */
  readonly minBurstLength?: number;
  /**
   * Typing that starts after this much quiet is a new entry: a scan there replaces the text
   * before it.
   * @default 600
   */
  readonly newEntryMs?: number;
  /**
   * An empty Enter this soon after a scan is the LF of a CR+LF suffix, not an empty scan.
   * @default 400
   */
  readonly pairedEnterMs?: number;
}

/** Installs the suffix rules on the scan box; `lookup` gets the complete code. */
export function installScanSuffixes(
  input: HTMLInputElement,
  lookup: (code: string) => void,
  options: ScanSuffixOptions = {},
): ScanSuffixes {
  return new ScanSuffixes(input, lookup, options);
}

export class ScanSuffixes {
  private readonly burstGapMs: number;
  private readonly quietMs: number;
  private readonly minBurstLength: number;
  private readonly newEntryMs: number;
  private readonly pairedEnterMs: number;
  private lastKeyAt = -Infinity;
  /** Where the current entry (typing after a pause) starts in the box. */
  private entryStart = 0;
  /** Fast keys in a row, and whether the current entry held a scanner burst. */
  private fastKeys = 0;
  private burstSeen = false;
  private quietTimer: ReturnType<typeof setTimeout> | null = null;
  private lastLookupAt = -Infinity;

  constructor(
    private readonly input: HTMLInputElement,
    private readonly lookup: (code: string) => void,
    options: ScanSuffixOptions,
  ) {
    this.burstGapMs = options.burstGapMs ?? 80;
    this.quietMs = options.quietMs ?? 300;
    this.minBurstLength = options.minBurstLength ?? 4;
    this.newEntryMs = options.newEntryMs ?? 600;
    this.pairedEnterMs = options.pairedEnterMs ?? 400;
    input.addEventListener('keydown', (event) => this.onKeyDown(event));
    input.addEventListener('input', (event) => this.onInput(event as InputEvent));
  }

  /** The form was submitted (Enter, or the Look up button): a lookup, or the LF of a CR+LF. */
  submitted(): { readonly code: string; readonly pairedEnter: boolean } {
    const code = this.currentCode();
    const pairedEnter = code.trim() === '' && performance.now() - this.lastLookupAt < this.pairedEnterMs;
    this.reset();
    if (code.trim() !== '') this.lastLookupAt = performance.now();
    return { code, pairedEnter };
  }

  /** The box's text, or only the latest entry when that was a scan typed after other text. */
  private currentCode(): string {
    return this.burstSeen ? this.input.value.slice(this.entryStart) : this.input.value;
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.key !== 'Tab' || event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return;
    if (this.input.value.trim() === '') return;
    // Tab as a scanner suffix: look up, keep the caret in the box for the next scan.
    event.preventDefault();
    this.fire(this.currentCode());
  }

  private onInput(event: InputEvent): void {
    if (event.inputType !== 'insertText' || event.data === null) {
      // A paste, a deletion: a person is editing; they press Enter when done.
      this.fastKeys = 0;
      this.burstSeen = false;
      this.entryStart = 0;
      this.clearTimer();
      return;
    }
    const now = performance.now();
    const gap = now - this.lastKeyAt;
    this.lastKeyAt = now;
    if (gap > this.newEntryMs) {
      this.entryStart = Math.max(0, this.input.value.length - event.data.length);
      this.burstSeen = false;
    }
    this.fastKeys = gap <= this.burstGapMs ? this.fastKeys + event.data.length : event.data.length;
    if (this.fastKeys >= this.minBurstLength) this.burstSeen = true;
    this.clearTimer();
    if (this.burstSeen) this.quietTimer = setTimeout(() => this.onQuiet(), this.quietMs);
  }

  private onQuiet(): void {
    this.quietTimer = null;
    const code = this.currentCode();
    if (code.trim().length < this.minBurstLength) return;
    this.fire(code);
  }

  private fire(code: string): void {
    this.reset();
    this.lastLookupAt = performance.now();
    this.lookup(code);
  }

  private reset(): void {
    this.clearTimer();
    this.fastKeys = 0;
    this.burstSeen = false;
    this.entryStart = 0;
  }

  private clearTimer(): void {
    if (this.quietTimer !== null) clearTimeout(this.quietTimer);
    this.quietTimer = null;
  }

  dispose(): void {
    this.clearTimer();
  }
}
