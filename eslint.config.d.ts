// Types for what test/lint reads from eslint.config.js (the config itself is plain JavaScript).
import type { Linter } from 'eslint';

/** One layer of src/main: its folders and top-level files (named without `.ts`). */
export interface MainLayer {
  readonly name: string;
  readonly folders?: readonly string[];
  readonly files?: readonly string[];
  /** Members of this layer may import each other. @default false */
  readonly across?: boolean;
}

/** The layers of src/main, low to high. */
export declare const MAIN_LAYERS: readonly MainLayer[];

declare const config: Linter.Config[];
export default config;
