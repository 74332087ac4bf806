/**
 * Bytes from a serial port cut into lines at CR or LF (empty lines dropped). A line longer
 * than `maxLine` is noise on the wire (a wrong baud rate never sends a line end): it is
 * dropped as one overlong line up to its next line end, never kept growing in memory.
 */
export class LineFramer {
  private buffer = '';
  private overflowing = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onOverlong: () => void,
    /** @default 128 characters: every protocol here answers in under 40 */
    private readonly maxLine = 128,
  ) {}

  push(chunk: Buffer | string): void {
    // latin1 keeps one byte one character, so control bytes (STX) survive untouched.
    const text = typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c !== '\r' && c !== '\n') continue;
      this.end(text.slice(start, i));
      start = i + 1;
    }
    this.append(text.slice(start));
  }

  private append(part: string): void {
    if (this.overflowing) return;
    this.buffer += part;
    if (this.buffer.length > this.maxLine) {
      this.buffer = '';
      this.overflowing = true;
      this.onOverlong();
    }
  }

  private end(part: string): void {
    this.append(part);
    if (this.overflowing) {
      this.overflowing = false;
      return;
    }
    const line = this.buffer;
    this.buffer = '';
    if (line !== '') this.onLine(line);
  }
}
