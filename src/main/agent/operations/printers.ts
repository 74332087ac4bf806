/**
 * The printers operations: what this station prints on (listPrinters, listConfiguredPrinters),
 * a test page on one, and moving a stopped label printer's labels to a fallback.
 */
import type { AgentInput } from '../../../shared/agent-api';
import { codedOnly, type AgentMessage } from '../../../shared/agent-messages';
import { AGENT_ERROR_CODES } from '../../../shared/agent-error-codes';
import { isSheetMedia, type ConfiguredPrinter, type PrinterInfo } from '../../../shared/domain';
import { CodedError } from '../../errors';
import { discoverPrinters } from '../../printing/discovery';
import { readinessWithin } from '../../printing/readiness-within';
import { findPrinter, mediaOn, printersOf } from '../../printing/routing';
import { parsePrinterUri } from '../../printing/uri';
import { TEST_PAGE_SHIPMENT, TEST_PAGE_TYPE, testPageLayout } from '../test-page';
import type { OperationDeps } from './deps';
import type { OperationGroup } from './groups';
import { printerRoles } from './printer-roles';

type PrinterDeps = Pick<OperationDeps, 'connection' | 'settings' | 'targetFor' | 'pipeline' | 'log' | 'fallback'>;

export function printerOperations(deps: PrinterDeps): OperationGroup<'printers'> {
  const { settings, pipeline, targetFor, log } = deps;
  return {
    async listPrinters(_input: AgentInput<'listPrinters'>): Promise<PrinterInfo[]> {
      return listPrinters(deps);
    },

    async listConfiguredPrinters(_input: AgentInput<'listConfiguredPrinters'>): Promise<ConfiguredPrinter[]> {
      const routing = settings.get().routing;
      return Promise.all(
        printersOf(routing).map(async ({ uri, name, media }): Promise<ConfiguredPrinter> => {
          const roles = printerRoles(routing, uri, media);
          // The printer's own readiness, as listPrinters gives it, in the same words.
          let readiness: { ready: boolean | null; detail: string | null; message?: AgentMessage | null };
          try {
            // Within a moment, else the last known: a printer that drips never holds the list up.
            readiness = await readinessWithin(targetFor(uri), media ?? 'a4');
          } catch (error) {
            readiness = { ready: false, detail: (error as Error).message };
          }
          const printer: ConfiguredPrinter = {
            uri,
            roles,
            paused: pipeline.isPaused(uri),
            name,
            media,
            ready: readiness.ready,
            detail: readiness.detail,
          };
          const detailMessage = codedOnly(readiness.message);
          return detailMessage ? { ...printer, detailMessage } : printer;
        }),
      );
    },

    async testPrint({ printer }: AgentInput<'testPrint'>) {
      await requireKnownPrinter(deps, printer);
      const routing = settings.get().routing;
      // A test page shows how labels come out on this printer: its media, and its sheet layout on sheets.
      const entry = findPrinter(routing, printer);
      const layout = testPageLayout(routing, printer);
      const [job] = pipeline.reprint({
        shipmentId: TEST_PAGE_SHIPMENT,
        documentType: TEST_PAGE_TYPE,
        layout,
        printer,
        trigger: 'manual',
      });
      if (!job) throw new CodedError(AGENT_ERROR_CODES.INTERNAL, 'the test page was not queued');
      log.info(`test page queued for ${printer} (${mediaOn(entry, layout)})`);
      return job;
    },

    async moveToFallback({ printer, to }: AgentInput<'moveToFallback'>) {
      if (!deps.fallback) throw new CodedError(AGENT_ERROR_CODES.INTERNAL, 'moving labels to a fallback printer is not available here');
      return deps.fallback.moveToFallback(printer, to);
    },
  };
}

/** The configured printers first, with their readiness, then the ones only discovered. */
export async function listPrinters(deps: Pick<OperationDeps, 'connection' | 'settings' | 'targetFor'>): Promise<PrinterInfo[]> {
  const { connection, settings, targetFor } = deps;
  const routing = settings.get().routing;
  const configured = printersOf(routing).map((p) => p.uri);
  // The printers are asked while discovery runs: the list waits for the slower of the two, not both.
  const asked = new Map(
    configured.map((uri) => {
      // With the media it is configured for: a printer that says it lacks it is not ready.
      const readiness = (async () => readinessWithin(targetFor(uri), findPrinter(routing, uri)?.media ?? 'a4'))();
      readiness.catch(() => undefined);
      return [uri, readiness] as const;
    }),
  );
  const discovered = await discoverPrinters({
    service: connection.configured ? { printers: () => connection.current.printers() } : undefined,
  });
  // The configured printers come first, with their readiness, even if discovery missed them.
  const byUri = new Map(discovered.map((p) => [p.uri, p]));
  const first = await Promise.all(
    configured.map(async (uri): Promise<PrinterInfo> => {
      const found = byUri.get(uri);
      byUri.delete(uri);
      const held = findPrinter(routing, uri)?.media ?? 'a4';
      const media = isSheetMedia(held) ? 'a4' : 'label';
      const roles = printerRoles(routing, uri, held);
      const { kind } = parsePrinterUri(uri);
      try {
        const readiness = await asked.get(uri)!;
        const detailMessage = codedOnly(readiness.message);
        const info: PrinterInfo = { uri, name: found?.name ?? uri, kind, media, roles, ready: readiness.ready, detail: readiness.detail };
        return detailMessage ? { ...info, detailMessage } : info;
      } catch (error) {
        // A printer this platform cannot drive (windows: on Linux) is listed, not fatal.
        const info: PrinterInfo = { uri, name: found?.name ?? uri, kind, media, roles, ready: false, detail: (error as Error).message };
        const detailMessage = error instanceof CodedError ? error.agentMessage : null;
        return detailMessage ? { ...info, detailMessage } : info;
      }
    }),
  );
  return [...first, ...byUri.values()];
}

/**
 * Reprints and test pages go only to printers this station uses or can see. An arbitrary
 * URI from the UI (folder:/anywhere, cups:Q@other-host) would write files anywhere or send
 * addresses off the machine.
 */
export async function requireKnownPrinter(deps: Pick<OperationDeps, 'connection' | 'settings' | 'targetFor'>, uri: string): Promise<void> {
  // The configured printers need no discovery (which asks CUPS and the service): a
  // reprint or a test page must not wait on a slow service to say what is already known.
  const routing = deps.settings.get().routing;
  if (printersOf(routing).some((p) => p.uri === uri)) return;
  const printers = await listPrinters(deps);
  if (!printers.some((p) => p.uri === uri)) {
    throw new CodedError(
      AGENT_ERROR_CODES.UNKNOWN_PRINTER,
      `"${uri}" is not one of this station's printers: choose one from the list, or add it in Settings → Printers and routing.`,
    );
  }
}
