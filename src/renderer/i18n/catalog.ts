import type { en } from './en';

/** A message key: one per word or sentence the UI shows. */
export type MessageKey = keyof typeof en;
/** A language's messages: every key, checked by the compiler (and test/renderer/i18n.test.ts). */
export type Catalog = Readonly<Record<MessageKey, string>>;
