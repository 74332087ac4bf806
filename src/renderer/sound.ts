/**
 * Audible feedback a packer hears without looking: one short high beep for success,
 * two low beeps for failure. WebAudio tones, no audio files (CSP and package size).
 */
let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof AudioContext === 'undefined') return null;
  context ??= new AudioContext();
  // Browsers start the context suspended until a user gesture; a scan is one.
  if (context.state === 'suspended') void context.resume().catch(() => undefined);
  return context;
}

function tone(ctx: AudioContext, frequency: number, startAt: number, seconds: number): void {
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = 'square';
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, startAt);
  gain.gain.exponentialRampToValueAtTime(0.15, startAt + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, startAt + seconds);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(startAt);
  oscillator.stop(startAt + seconds + 0.02);
}

export function beepSuccess(): void {
  const ctx = audio();
  if (ctx) tone(ctx, 1760, ctx.currentTime, 0.09);
}

export function beepFailure(): void {
  const ctx = audio();
  if (!ctx) return;
  tone(ctx, 220, ctx.currentTime, 0.16);
  tone(ctx, 220, ctx.currentTime + 0.24, 0.16);
}

/** Create the context inside a user gesture so the first beep is not swallowed. */
export function primeAudio(): void {
  audio();
}
