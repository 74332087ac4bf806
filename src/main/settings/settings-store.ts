/**
 * Station settings: what the team lead sets up once. One interface, two backings
 * (conf headless, electron-store in the app), validated with zod on every read so a
 * hand-edited or half-migrated file degrades to defaults instead of crashing the agent.
 */
import { z } from 'zod';
import { intakeSchema, routingSchema, stationRulesSchema, type SettingsView } from '../../shared/domain';
import { checkServiceAddress } from '../api/service-address';
import { CodedError } from '../errors';
import type { Logger } from '../log';
import { parsePrinterUri } from '../printing/uri';
import { parseScaleUri } from '../devices/scale-uri';

export const ENVIRONMENTS = ['sandbox', 'production', 'custom'] as const;

/**
 * What is persisted: the settings view minus `apiKeySet`, plus the API key as the
 * platform's ciphertext. The plain key is never stored here.
 */
export interface StoredSettings extends Omit<SettingsView, 'apiKeySet' | 'apiKeySessionOnly'> {
  readonly encryptedApiKey?: string;
}

export const storedSettingsSchema = z.object({
  environment: z.enum(ENVIRONMENTS),
  apiUrl: z.string().url(),
  routing: routingSchema,
  intake: intakeSchema,
  stationRules: stationRulesSchema,
  paused: z.boolean(),
  /** The station's scale URI; absent in files written before scales: no scale. */
  scale: z.string().min(1).max(512).optional(),
  encryptedApiKey: z.string().min(1).optional(),
});

/** A partial update. Nested sections merge field by field; `encryptedApiKey: null` removes the key. */
export interface SettingsPatch {
  readonly environment?: StoredSettings['environment'];
  readonly apiUrl?: string;
  readonly routing?: Partial<StoredSettings['routing']>;
  readonly intake?: Partial<StoredSettings['intake']>;
  readonly stationRules?: StoredSettings['stationRules'];
  readonly paused?: boolean;
  readonly scale?: string;
  readonly encryptedApiKey?: string | null;
}

export interface SettingsStore {
  get(): StoredSettings;
  /** Validates the merged result; throws InvalidSettingsError and stores nothing when invalid. */
  update(patch: SettingsPatch): StoredSettings;
  /** Called after every successful update. Returns the unsubscribe function. */
  onChange(listener: (settings: StoredSettings) => void): () => void;
}

export class InvalidSettingsError extends CodedError {
  readonly field: string;
  constructor(field: string, detail: string) {
    super('INVALID_SETTINGS', `Setting "${field}" is invalid: ${detail}. Correct it and save again.`);
    this.field = field;
  }
}

/** Write failures that mean "no room or not writable" (the disk, not the settings). */
const UNWRITABLE: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EACCES', 'EPERM']);

/** The settings file could not be written (its disk is full or read-only): nothing was saved. */
export class SettingsNotSavedError extends CodedError {
  /** The file system's code (ENOSPC, EROFS, …). */
  readonly errno: string;
  constructor(errno: string, where: string | null, cause: unknown) {
    super(
      'SETTINGS_NOT_SAVED',
      `Settings were not saved: ${where ? `${where} cannot be written` : 'the settings file cannot be written'} (${errno}; its disk is full or read-only). Free space on that disk, then save again.`,
      { cause },
    );
    this.errno = errno;
  }

  /** `error` as a SettingsNotSavedError when it is a write the disk refused; else null. */
  static from(error: unknown, where: string | null): SettingsNotSavedError | null {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    return typeof code === 'string' && UNWRITABLE.has(code) ? new SettingsNotSavedError(code, where, error) : null;
  }
}

/**
 * @param printFolder where PDFs go until a printer is chosen. Relative paths resolve
 *   against the working directory, which only a command-line agent controls; the desktop
 *   app passes an absolute folder. @default './prints'
 */
export function defaultSettings(apiUrl: string, printFolder = './prints'): StoredSettings {
  return {
    environment: 'sandbox',
    apiUrl,
    routing: {
      labelPrinter: `folder:${printFolder}`,
      documentPrinter: `folder:${printFolder}`,
      labelPrinterMedia: 'label',
      sheetLayout: 'a4',
      autoPrint: ['label'],
      copies: 1,
    },
    intake: { webhooksEnabled: true, pollIntervalSeconds: 5 },
    stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
    paused: false,
  };
}

const SECTIONS = ['environment', 'apiUrl', 'routing', 'intake', 'stationRules', 'paused', 'scale', 'encryptedApiKey'] as const;

/**
 * Reads whatever the backing holds. A section that fails validation falls back to its
 * default (with a warning naming it) so one bad field does not wipe the printers a
 * team lead configured.
 */
export function readStoredSettings(raw: unknown, defaults: StoredSettings, logger: Logger): StoredSettings {
  const whole = storedSettingsSchema.safeParse(raw);
  if (whole.success) return whole.data;
  const source = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  if (source !== raw) logger.warn('settings: the settings file does not hold an object; using defaults');
  const shape = storedSettingsSchema.shape;
  const result: Record<string, unknown> = { ...defaults };
  for (const key of SECTIONS) {
    if (!(key in source)) continue;
    const parsed = shape[key].safeParse(source[key]);
    if (parsed.success) {
      if (parsed.data !== undefined) result[key] = parsed.data;
    } else {
      logger.warn(`settings: "${key}" is invalid (${describeIssue(parsed.error)}); using the default`);
    }
  }
  return result as unknown as StoredSettings;
}

/** Applies a patch and validates the result; throws InvalidSettingsError naming the field. */
export function mergeSettings(current: StoredSettings, patch: SettingsPatch): StoredSettings {
  const { encryptedApiKey: _dropped, ...rest } = current;
  const merged: Record<string, unknown> = {
    ...rest,
    ...definedOnly({
      environment: patch.environment,
      apiUrl: patch.apiUrl,
      paused: patch.paused,
      stationRules: patch.stationRules,
      scale: patch.scale,
    }),
    routing: { ...current.routing, ...definedOnly(patch.routing ?? {}) },
    intake: { ...current.intake, ...definedOnly(patch.intake ?? {}) },
  };
  const key = patch.encryptedApiKey === undefined ? current.encryptedApiKey : patch.encryptedApiKey;
  if (key !== null && key !== undefined) merged.encryptedApiKey = key;
  const parsed = storedSettingsSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidSettingsError(issue ? issue.path.join('.') || '(root)' : '(root)', issue?.message ?? 'invalid');
  }
  // Every writer (the UI, `--printer` on the command line) goes through here: a printer
  // that is not a printer URI is refused (PrintError INVALID_PRINTER_URI, naming the valid
  // forms), not discovered when the first label fails.
  for (const uri of [patch.routing?.labelPrinter, patch.routing?.documentPrinter]) if (uri !== undefined) parsePrinterUri(uri);
  // A scale URI is checked the same way: refused when saved, naming the valid forms.
  if (patch.scale !== undefined) parseScaleUri(patch.scale);
  if (patch.routing?.printers || patch.routing?.rules || patch.routing?.defaults) checkRoutingTargets(parsed.data.routing);
  // Refused when saved, not at the first call: the key would cross a public network in clear.
  if (patch.apiUrl !== undefined) checkServiceAddress(parsed.data.apiUrl);
  return parsed.data;
}

/**
 * Every printer a rule, a default or a fallback names is a listed printer's name or a printer
 * URI, and a fallback prints labels as sheets: refused when saved, not when the first label needs it.
 */
function checkRoutingTargets(routing: StoredSettings['routing']): void {
  const printers = routing.printers ?? [];
  const names = new Set(printers.map((p) => p.name));
  if (names.size !== printers.length) throw new InvalidSettingsError('routing.printers', 'two printers have the same name');
  printers.forEach((printer, i) => {
    try {
      parsePrinterUri(printer.uri);
    } catch (error) {
      // Named by its place in the list, so the printers form shows it beside that printer's URI.
      throw new InvalidSettingsError(`routing.printers.${i}.uri`, (error as Error).message.replace(/\.$/, ''));
    }
  });
  const named = (field: string, value: string): void => {
    if (names.has(value)) return;
    try {
      parsePrinterUri(value);
    } catch {
      throw new InvalidSettingsError(field, `"${value}" is neither a printer's name nor a printer URI`);
    }
  };
  (routing.rules ?? []).forEach((rule, i) => named(`routing.rules.${i}.printer`, rule.printer));
  for (const [type, printer] of Object.entries(routing.defaults ?? {})) named(`routing.defaults.${type}`, printer);
  printers.forEach((printer, i) => {
    if (!printer.fallback) return;
    named(`routing.printers.${i}.fallback.printer`, printer.fallback.printer);
    const target = printers.find((p) => p.name === printer.fallback!.printer || p.uri === printer.fallback!.printer);
    if (target && target.media !== 'a4' && target.media !== 'letter') {
      throw new InvalidSettingsError(
        `routing.printers.${i}.fallback.printer`,
        `"${target.name}" holds label stock; choose an A4 or Letter printer`,
      );
    }
  });
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
