/**
 * The Electron tray menu's and the desktop notifications' words in the five UI languages.
 * They live here because src/main/electron may not import the renderer's catalogs; the
 * renderer tells main which language it speaks (agent-api.ts UI_LANGUAGE_CHANNEL), so the
 * tray and the notifications say what the window says. English keeps the original words.
 */
import { REPORT_LANGUAGES, type ReportLanguage } from './report-words';

/** The UI languages (the same five as the catalogs and the report). */
export const UI_LANGUAGES = REPORT_LANGUAGES;
export type UiLanguage = ReportLanguage;

export const isUiLanguage = (value: unknown): value is UiLanguage =>
  typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);

/** The UI language of a BCP 47 tag ("sv-SE", "nn", "fi"); null for any other language. */
export function uiLanguageOf(tag: string): UiLanguage | null {
  const base = tag.toLowerCase().split(/[-_]/)[0] ?? '';
  if (base === 'no' || base === 'nn') return 'nb';
  return isUiLanguage(base) ? base : null;
}

const en = {
  // The tray icon's tooltip state and its menu.
  'tray.state.ok': 'printing automatically',
  'tray.state.paused': 'auto-print paused',
  'tray.state.error': 'needs attention',
  'tray.state.offline': 'offline',
  'tray.notConnected': 'Not connected',
  'tray.lastPrint': 'last print {time}',
  'tray.noPrints': 'no prints yet',
  'tray.scaleOffline': 'Scale {scale} is offline: weights are not read',
  'tray.unknownTime': 'unknown',
  'tray.pauseAutoPrint': 'Pause auto-print',
  'tray.resumeAutoPrint': 'Resume auto-print',
  'tray.printers': 'Printers',
  'tray.pausePrinter': 'Pause {printer}',
  'tray.resumePrinter': 'Resume {printer}',
  'tray.open': 'Open Print Station',
  'tray.testPrint': 'Print test label',
  'tray.testPrintFailed': 'Test print failed',
  'tray.startAtLogin': 'Start at login',
  'tray.quit': 'Quit Print Station',
  // Desktop notifications.
  'notify.printFailed': 'Print failed: {document} for {what}',
  'notify.unknownReason': 'unknown reason',
  'notify.requestId': ' (request {id})',
  'notify.more': '\n…and {count} more since the last notification (see the queue).',
  'notify.moreProblems.one': '{count} more print problem',
  'notify.moreProblems.other': '{count} more print problems',
  'notify.openQueue': 'Open Print Station to see the queue.',
  // Document types in a notification's title (as the UI catalogs' document.* words).
  'notify.updateReady': 'Update ready',
  'notify.updateBody': 'Print Station{version} installs when the print queue is empty. Click to install then.',
  'notify.document.label': 'label',
  'notify.document.manifest': 'manifest',
  'notify.document.waybill': 'waybill',
  'notify.document.customsinvoice': 'customs invoice',
  'notify.document.proofofdelivery': 'proof of delivery',
  'notify.document.abd': 'export accompanying document',
  'notify.document.salesinvoice': 'sales invoice',
};

export type TrayKey = keyof typeof en;
export type TrayWords = Readonly<Record<TrayKey, string>>;

const sv: TrayWords = {
  'tray.state.ok': 'skriver ut automatiskt',
  'tray.state.paused': 'automatisk utskrift pausad',
  'tray.state.error': 'behöver åtgärdas',
  'tray.state.offline': 'frånkopplad',
  'tray.notConnected': 'Inte ansluten',
  'tray.lastPrint': 'senaste utskrift {time}',
  'tray.noPrints': 'inga utskrifter än',
  'tray.scaleOffline': 'Vågen {scale} är frånkopplad: vikter läses inte',
  'tray.unknownTime': 'okänd',
  'tray.pauseAutoPrint': 'Pausa automatisk utskrift',
  'tray.resumeAutoPrint': 'Återuppta automatisk utskrift',
  'tray.printers': 'Skrivare',
  'tray.pausePrinter': 'Pausa {printer}',
  'tray.resumePrinter': 'Återuppta {printer}',
  'tray.open': 'Öppna Print Station',
  'tray.testPrint': 'Skriv ut testetikett',
  'tray.testPrintFailed': 'Testutskriften misslyckades',
  'tray.startAtLogin': 'Starta vid inloggning',
  'tray.quit': 'Avsluta Print Station',
  'notify.printFailed': 'Utskriften misslyckades: {document} för {what}',
  'notify.unknownReason': 'okänd orsak',
  'notify.requestId': ' (förfrågnings-id {id})',
  'notify.more': '\n…och {count} till sedan förra aviseringen (se kön).',
  'notify.moreProblems.one': '{count} utskriftsproblem till',
  'notify.moreProblems.other': '{count} utskriftsproblem till',
  'notify.openQueue': 'Öppna Print Station för att se kön.',
  'notify.updateReady': 'Uppdatering klar',
  'notify.updateBody': 'Print Station{version} installeras när utskriftskön är tom. Klicka för att installera då.',
  'notify.document.label': 'etikett',
  'notify.document.manifest': 'manifest',
  'notify.document.waybill': 'fraktsedel',
  'notify.document.customsinvoice': 'tullfaktura',
  'notify.document.proofofdelivery': 'leveransbevis',
  'notify.document.abd': 'exportföljedokument',
  'notify.document.salesinvoice': 'försäljningsfaktura',
};

const da: TrayWords = {
  'tray.state.ok': 'udskriver automatisk',
  'tray.state.paused': 'automatisk udskrivning sat på pause',
  'tray.state.error': 'kræver opmærksomhed',
  'tray.state.offline': 'uden forbindelse',
  'tray.notConnected': 'Ikke forbundet',
  'tray.lastPrint': 'seneste udskrift {time}',
  'tray.noPrints': 'ingen udskrifter endnu',
  'tray.scaleOffline': 'Vægten {scale} er afbrudt: vægte aflæses ikke',
  'tray.unknownTime': 'ukendt',
  'tray.pauseAutoPrint': 'Sæt automatisk udskrivning på pause',
  'tray.resumeAutoPrint': 'Genoptag automatisk udskrivning',
  'tray.printers': 'Printere',
  'tray.pausePrinter': 'Sæt {printer} på pause',
  'tray.resumePrinter': 'Genoptag {printer}',
  'tray.open': 'Åbn Print Station',
  'tray.testPrint': 'Udskriv testetiket',
  'tray.testPrintFailed': 'Testudskrivningen mislykkedes',
  'tray.startAtLogin': 'Start ved login',
  'tray.quit': 'Afslut Print Station',
  'notify.printFailed': 'Udskrivning mislykkedes: {document} til {what}',
  'notify.unknownReason': 'ukendt årsag',
  'notify.requestId': ' (anmodnings-id {id})',
  'notify.more': '\n…og {count} mere siden sidste notifikation (se køen).',
  'notify.moreProblems.one': '{count} udskrivningsproblem mere',
  'notify.moreProblems.other': '{count} udskrivningsproblemer mere',
  'notify.openQueue': 'Åbn Print Station for at se køen.',
  'notify.updateReady': 'Opdatering klar',
  'notify.updateBody': 'Print Station{version} installeres, når udskriftskøen er tom. Klik for at installere den til den tid.',
  'notify.document.label': 'etiket',
  'notify.document.manifest': 'manifest',
  'notify.document.waybill': 'fragtbrev',
  'notify.document.customsinvoice': 'toldfaktura',
  'notify.document.proofofdelivery': 'leveringsbevis',
  'notify.document.abd': 'eksportledsagedokument',
  'notify.document.salesinvoice': 'salgsfaktura',
};

const nb: TrayWords = {
  'tray.state.ok': 'skriver ut automatisk',
  'tray.state.paused': 'automatisk utskrift satt på pause',
  'tray.state.error': 'trenger tilsyn',
  'tray.state.offline': 'frakoblet',
  'tray.notConnected': 'Ikke tilkoblet',
  'tray.lastPrint': 'siste utskrift {time}',
  'tray.noPrints': 'ingen utskrifter ennå',
  'tray.scaleOffline': 'Vekten {scale} er frakoblet: vekter leses ikke',
  'tray.unknownTime': 'ukjent',
  'tray.pauseAutoPrint': 'Sett automatisk utskrift på pause',
  'tray.resumeAutoPrint': 'Gjenoppta automatisk utskrift',
  'tray.printers': 'Skrivere',
  'tray.pausePrinter': 'Sett {printer} på pause',
  'tray.resumePrinter': 'Gjenoppta {printer}',
  'tray.open': 'Åpne Print Station',
  'tray.testPrint': 'Skriv ut testetikett',
  'tray.testPrintFailed': 'Testutskriften mislyktes',
  'tray.startAtLogin': 'Start ved pålogging',
  'tray.quit': 'Avslutt Print Station',
  'notify.printFailed': 'Utskrift mislyktes: {document} for {what}',
  'notify.unknownReason': 'ukjent årsak',
  'notify.requestId': ' (forespørsels-id {id})',
  'notify.more': '\n…og {count} til siden forrige varsel (se køen).',
  'notify.moreProblems.one': '{count} utskriftsproblem til',
  'notify.moreProblems.other': '{count} utskriftsproblemer til',
  'notify.openQueue': 'Åpne Print Station for å se køen.',
  'notify.updateReady': 'Oppdatering klar',
  'notify.updateBody': 'Print Station{version} installeres når utskriftskøen er tom. Klikk for å installere den da.',
  'notify.document.label': 'etikett',
  'notify.document.manifest': 'manifest',
  'notify.document.waybill': 'fraktbrev',
  'notify.document.customsinvoice': 'tollfaktura',
  'notify.document.proofofdelivery': 'leveringsbevis',
  'notify.document.abd': 'eksportfølgedokument',
  'notify.document.salesinvoice': 'salgsfaktura',
};

const fi: TrayWords = {
  'tray.state.ok': 'tulostaa automaattisesti',
  'tray.state.paused': 'automaattinen tulostus keskeytetty',
  'tray.state.error': 'vaatii huomiota',
  'tray.state.offline': 'ei yhteyttä',
  'tray.notConnected': 'Ei yhdistetty',
  'tray.lastPrint': 'viimeisin tulostus {time}',
  'tray.noPrints': 'ei vielä tulosteita',
  'tray.scaleOffline': 'Vaaka {scale} ei ole yhteydessä: painoja ei lueta',
  'tray.unknownTime': 'tuntematon',
  'tray.pauseAutoPrint': 'Keskeytä automaattinen tulostus',
  'tray.resumeAutoPrint': 'Jatka automaattista tulostusta',
  'tray.printers': 'Tulostimet',
  'tray.pausePrinter': 'Keskeytä {printer}',
  'tray.resumePrinter': 'Jatka {printer}',
  'tray.open': 'Avaa Print Station',
  'tray.testPrint': 'Tulosta testitarra',
  'tray.testPrintFailed': 'Testitulostus epäonnistui',
  'tray.startAtLogin': 'Käynnistä kirjautuessa',
  'tray.quit': 'Sulje Print Station',
  'notify.printFailed': 'Tulostus epäonnistui: {document}, {what}',
  'notify.unknownReason': 'tuntematon syy',
  'notify.requestId': ' (pyynnön tunnus {id})',
  'notify.more': '\n…ja {count} lisää edellisen ilmoituksen jälkeen (katso jono).',
  'notify.moreProblems.one': '{count} tulostusongelma lisää',
  'notify.moreProblems.other': '{count} tulostusongelmaa lisää',
  'notify.openQueue': 'Avaa Print Station nähdäksesi jonon.',
  'notify.updateReady': 'Päivitys valmis',
  'notify.updateBody': 'Print Station{version} asennetaan, kun tulostusjono on tyhjä. Napsauta, niin se asennetaan silloin.',
  'notify.document.label': 'osoitetarra',
  'notify.document.manifest': 'manifesti',
  'notify.document.waybill': 'rahtikirja',
  'notify.document.customsinvoice': 'tullilasku',
  'notify.document.proofofdelivery': 'toimitustodistus',
  'notify.document.abd': 'vientiasiakirja',
  'notify.document.salesinvoice': 'myyntilasku',
};

export const TRAY_WORDS: Readonly<Record<UiLanguage, TrayWords>> = { en, sv, da, nb, fi };

/** A tray or notification word in `language` with `{name}` replaced by params[name]. */
export function trayWord(language: UiLanguage, key: TrayKey, params: Readonly<Record<string, string | number>> = {}): string {
  return TRAY_WORDS[language][key].replaceAll(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}

/** A document type in a notification's words; a type this build does not know stays as the service names it. */
export function notifyDocumentWord(language: UiLanguage, documentType: string): string {
  const key = `notify.document.${documentType}`;
  return Object.hasOwn(TRAY_WORDS[language], key) ? TRAY_WORDS[language][key as TrayKey] : documentType;
}
