/**
 * The end-of-day report's words in the five UI languages: the CSV's headers and values, the
 * booking states and the lines of `npm run agent -- report --lang`. They are part of the UI
 * catalogs (each src/renderer/i18n/<lang>.ts spreads its language in, so the End of day view
 * reads them with `t()` like any other message), and they live here because the command
 * line needs them too and src/main may not import the renderer. One place, so the screen,
 * the downloaded CSV and the terminal say the same word.
 *
 * English keeps the report's original words: the CSV header `reference,carrier,tracking_id,…`
 * and the terminal lines scripts read are unchanged.
 */
import type { AgentMessage } from './agent-messages';
import type { EndOfDayRow, EndOfDayState } from './domain';
import { formatMessage } from './plural';

export const REPORT_LANGUAGES = ['en', 'sv', 'da', 'nb', 'fi'] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

export const isReportLanguage = (value: unknown): value is ReportLanguage =>
  typeof value === 'string' && (REPORT_LANGUAGES as readonly string[]).includes(value);

const en = {
  // A booking's print state, here and on the End of day tab.
  'eod.state.printed': 'printed',
  'eod.state.may_have_printed': 'may have printed',
  'eod.state.printing': 'printing',
  'eod.state.failed': 'failed',
  'eod.state.not_printed': 'not printed',
  'eod.state.canceled': 'canceled',
  // The End of day count tiles and the terminal's counts line: the word for a number of bookings.
  'eod.count.booked': '{count, plural, one {booked} other {booked}}',
  'eod.count.printed': '{count, plural, one {printed} other {printed}}',
  'eod.count.may_have_printed': '{count, plural, one {may have printed} other {may have printed}}',
  'eod.count.failed': '{count, plural, one {failed} other {failed}}',
  'eod.count.not_printed': '{count, plural, one {not printed} other {not printed}}',
  'eod.count.canceled': '{count, plural, one {canceled} other {canceled}}',
  'eod.printedOn': '{time} on {printer}',
  'eod.requestId': ' (request id {id})',
  // CSV columns, in file order (English: the documented header).
  'report.csv.reference': 'reference',
  'report.csv.carrier': 'carrier',
  'report.csv.trackingId': 'tracking_id',
  'report.csv.shipmentId': 'shipment_id',
  'report.csv.bookedAt': 'booked_at',
  'report.csv.state': 'state',
  'report.csv.printedAt': 'printed_at',
  'report.csv.printer': 'printer',
  'report.csv.detail': 'detail',
  'report.csv.seenBy': 'seen_by',
  // Who knows of a booking (the seen_by column).
  'report.seenBy.service': 'service',
  'report.seenBy.station': 'station',
  'report.seenBy.both': 'both',
  // The terminal report.
  'report.title': 'End of day {day}',
  'report.manifests': 'manifests: {printed} of {available} printed',
  'report.serviceUnread': "warning: the service's list was not read, counts are this station's ledger only: {error}",
  'report.printMissingHint': 'To print what is missing: the End of day tab of the agent\'s UI, "Print what is missing".',
  'report.csvWritten': 'csv: {file}',
  // Where a booking stands (the detail column), from its message code (src/shared/agent-messages.ts).
  'report.detail.neverReached': 'never reached this station',
  'report.detail.canceledAtService': 'shipment canceled at the service',
  'report.detail.canceledAtStation': 'shipment canceled at this station',
  'report.detail.atPrinter': 'at the printer, not reported done: check the printer',
  'report.detail.held': 'held: automatic printing is paused',
  'report.detail.waiting.queued': 'waiting in the queue (queued)',
  'report.detail.waiting.fetching': 'waiting in the queue (fetching)',
  'report.detail.waiting.spooling': 'waiting in the queue (spooling)',
  'report.detail.canceledByHand': 'label job canceled by hand',
  'report.detail.onlyOtherDocument': 'no label job: only another document was printed automatically',
  'report.detail.notPrintedYet': 'not printed yet',
};

export type ReportKey = keyof typeof en;
export type ReportWords = Readonly<Record<ReportKey, string>>;

const sv: ReportWords = {
  'eod.state.printed': 'utskriven',
  'eod.state.may_have_printed': 'kan ha skrivits ut',
  'eod.state.printing': 'skrivs ut',
  'eod.state.failed': 'misslyckades',
  'eod.state.not_printed': 'inte utskriven',
  'eod.state.canceled': 'avbokad',
  'eod.count.booked': '{count, plural, one {bokad} other {bokade}}',
  'eod.count.printed': '{count, plural, one {utskriven} other {utskrivna}}',
  'eod.count.may_have_printed': '{count, plural, one {kan ha skrivits ut} other {kan ha skrivits ut}}',
  'eod.count.failed': '{count, plural, one {misslyckades} other {misslyckades}}',
  'eod.count.not_printed': '{count, plural, one {inte utskriven} other {inte utskrivna}}',
  'eod.count.canceled': '{count, plural, one {avbokad} other {avbokade}}',
  'eod.printedOn': '{time} på {printer}',
  'eod.requestId': ' (förfrågnings-id {id})',
  'report.csv.reference': 'Referens',
  'report.csv.carrier': 'Transportör',
  'report.csv.trackingId': 'Spårnings-id',
  'report.csv.shipmentId': 'Sändnings-id',
  'report.csv.bookedAt': 'Bokningstid',
  'report.csv.state': 'Läge',
  'report.csv.printedAt': 'Utskriftstid',
  'report.csv.printer': 'Skrivare',
  'report.csv.detail': 'Detaljer',
  'report.csv.seenBy': 'Känd av',
  'report.seenBy.service': 'tjänsten',
  'report.seenBy.station': 'stationen',
  'report.seenBy.both': 'båda',
  'report.title': 'Dagsavslut {day}',
  'report.manifests': 'manifest: {printed} av {available} {printed, plural, one {utskrivet} other {utskrivna}}',
  'report.serviceUnread': 'varning: tjänstens lista kunde inte läsas, siffrorna gäller bara stationens egna jobb: {error}',
  'report.printMissingHint': 'För att skriva ut det som saknas: fliken Dagsavslut i agentens gränssnitt, "Skriv ut det som saknas".',
  'report.csvWritten': 'CSV-fil: {file}',
  'report.detail.neverReached': 'nådde aldrig den här stationen',
  'report.detail.canceledAtService': 'sändningen avbokad hos tjänsten',
  'report.detail.canceledAtStation': 'sändningen avbokad på den här stationen',
  'report.detail.atPrinter': 'hos skrivaren men inte rapporterad klar: kontrollera skrivaren',
  'report.detail.held': 'väntar: automatisk utskrift är pausad',
  'report.detail.waiting.queued': 'väntar i kön (köad)',
  'report.detail.waiting.fetching': 'väntar i kön (hämtas)',
  'report.detail.waiting.spooling': 'väntar i kön (skickas till skrivaren)',
  'report.detail.canceledByHand': 'etikettjobbet avbröts för hand',
  'report.detail.onlyOtherDocument': 'inget etikettjobb: bara ett annat dokument skrevs ut automatiskt',
  'report.detail.notPrintedYet': 'inte utskrivet än',
};

const da: ReportWords = {
  'eod.state.printed': 'udskrevet',
  'eod.state.may_have_printed': 'kan være udskrevet',
  'eod.state.printing': 'udskrives',
  'eod.state.failed': 'mislykkedes',
  'eod.state.not_printed': 'ikke udskrevet',
  'eod.state.canceled': 'annulleret',
  'eod.count.booked': '{count, plural, one {booket} other {bookede}}',
  'eod.count.printed': '{count, plural, one {udskrevet} other {udskrevne}}',
  'eod.count.may_have_printed': '{count, plural, one {kan være udskrevet} other {kan være udskrevet}}',
  'eod.count.failed': '{count, plural, one {mislykkedes} other {mislykkedes}}',
  'eod.count.not_printed': '{count, plural, one {ikke udskrevet} other {ikke udskrevne}}',
  'eod.count.canceled': '{count, plural, one {annulleret} other {annullerede}}',
  'eod.printedOn': '{time} på {printer}',
  'eod.requestId': ' (anmodnings-id {id})',
  'report.csv.reference': 'Referencenummer',
  'report.csv.carrier': 'Fragtfirma',
  'report.csv.trackingId': 'Sporings-id',
  'report.csv.shipmentId': 'Forsendelses-id',
  'report.csv.bookedAt': 'Booket kl.',
  'report.csv.state': 'Status',
  'report.csv.printedAt': 'Udskrevet kl.',
  'report.csv.printer': 'Printer',
  'report.csv.detail': 'Detaljer',
  'report.csv.seenBy': 'Kendt af',
  'report.seenBy.service': 'tjenesten',
  'report.seenBy.station': 'stationen',
  'report.seenBy.both': 'begge',
  'report.title': 'Dagsafslutning {day}',
  'report.manifests': 'manifester: {printed} af {available} udskrevet',
  'report.serviceUnread': 'advarsel: tjenestens liste kunne ikke læses, tallene gælder kun stationens egne job: {error}',
  'report.printMissingHint': 'For at udskrive det, der mangler: fanen Dagsafslutning i agentens brugerflade, "Udskriv det, der mangler".',
  'report.csvWritten': 'CSV-fil: {file}',
  'report.detail.neverReached': 'nåede aldrig frem til denne station',
  'report.detail.canceledAtService': 'forsendelsen annulleret hos tjenesten',
  'report.detail.canceledAtStation': 'forsendelsen annulleret på denne station',
  'report.detail.atPrinter': 'ved printeren, men ikke meldt færdig: tjek printeren',
  'report.detail.held': 'tilbageholdt: automatisk udskrivning er sat på pause',
  'report.detail.waiting.queued': 'venter i køen (i kø)',
  'report.detail.waiting.fetching': 'venter i køen (hentes)',
  'report.detail.waiting.spooling': 'venter i køen (sendes til printeren)',
  'report.detail.canceledByHand': 'etiketjobbet annulleret manuelt',
  'report.detail.onlyOtherDocument': 'intet etiketjob: kun et andet dokument blev udskrevet automatisk',
  'report.detail.notPrintedYet': 'ikke udskrevet endnu',
};

const nb: ReportWords = {
  'eod.state.printed': 'skrevet ut',
  'eod.state.may_have_printed': 'kan være skrevet ut',
  'eod.state.printing': 'skrives ut',
  'eod.state.failed': 'mislyktes',
  'eod.state.not_printed': 'ikke skrevet ut',
  'eod.state.canceled': 'kansellert',
  'eod.count.booked': '{count, plural, one {booket} other {bookede}}',
  'eod.count.printed': '{count, plural, one {skrevet ut} other {skrevet ut}}',
  'eod.count.may_have_printed': '{count, plural, one {kan være skrevet ut} other {kan være skrevet ut}}',
  'eod.count.failed': '{count, plural, one {mislyktes} other {mislyktes}}',
  'eod.count.not_printed': '{count, plural, one {ikke skrevet ut} other {ikke skrevet ut}}',
  'eod.count.canceled': '{count, plural, one {kansellert} other {kansellerte}}',
  'eod.printedOn': '{time} på {printer}',
  'eod.requestId': ' (forespørsels-id {id})',
  'report.csv.reference': 'Referanse',
  'report.csv.carrier': 'Transportør',
  'report.csv.trackingId': 'Sporings-id',
  'report.csv.shipmentId': 'Sendings-ID',
  'report.csv.bookedAt': 'Booket kl.',
  'report.csv.state': 'Status',
  'report.csv.printedAt': 'Skrevet ut kl.',
  'report.csv.printer': 'Skriver',
  'report.csv.detail': 'Detaljer',
  'report.csv.seenBy': 'Kjent av',
  'report.seenBy.service': 'tjenesten',
  'report.seenBy.station': 'stasjonen',
  'report.seenBy.both': 'begge',
  'report.title': 'Dagsavslutning {day}',
  'report.manifests': 'manifester: {printed} av {available} skrevet ut',
  'report.serviceUnread': 'advarsel: tjenestens liste kunne ikke leses, tallene gjelder bare stasjonens egne jobber: {error}',
  'report.printMissingHint':
    'For å skrive ut det som mangler: fanen Dagsavslutning i agentens brukergrensesnitt, "Skriv ut det som mangler".',
  'report.csvWritten': 'CSV-fil: {file}',
  'report.detail.neverReached': 'nådde aldri frem til denne stasjonen',
  'report.detail.canceledAtService': 'sendingen kansellert hos tjenesten',
  'report.detail.canceledAtStation': 'sendingen kansellert på denne stasjonen',
  'report.detail.atPrinter': 'hos skriveren, men ikke meldt ferdig: sjekk skriveren',
  'report.detail.held': 'holdt tilbake: automatisk utskrift er satt på pause',
  'report.detail.waiting.queued': 'venter i køen (i kø)',
  'report.detail.waiting.fetching': 'venter i køen (hentes)',
  'report.detail.waiting.spooling': 'venter i køen (sendes til skriveren)',
  'report.detail.canceledByHand': 'etikettjobben kansellert manuelt',
  'report.detail.onlyOtherDocument': 'ingen etikettjobb: bare et annet dokument ble skrevet ut automatisk',
  'report.detail.notPrintedYet': 'ikke skrevet ut ennå',
};

const fi: ReportWords = {
  'eod.state.printed': 'tulostettu',
  'eod.state.may_have_printed': 'saattoi tulostua',
  'eod.state.printing': 'tulostuu',
  'eod.state.failed': 'epäonnistui',
  'eod.state.not_printed': 'ei tulostettu',
  'eod.state.canceled': 'peruttu',
  'eod.count.booked': '{count, plural, one {varattu} other {varattua}}',
  'eod.count.printed': '{count, plural, one {tulostettu} other {tulostettua}}',
  'eod.count.may_have_printed': '{count, plural, one {saattoi tulostua} other {saattoi tulostua}}',
  'eod.count.failed': '{count, plural, one {epäonnistui} other {epäonnistui}}',
  'eod.count.not_printed': '{count, plural, one {tulostamatta} other {tulostamatta}}',
  'eod.count.canceled': '{count, plural, one {peruttu} other {peruttua}}',
  'eod.printedOn': '{time} tulostimella {printer}',
  'eod.requestId': ' (pyynnön tunnus {id})',
  'report.csv.reference': 'Viite',
  'report.csv.carrier': 'Kuljetusyhtiö',
  'report.csv.trackingId': 'Seurantanumero',
  'report.csv.shipmentId': 'Lähetystunnus',
  'report.csv.bookedAt': 'Varattu',
  'report.csv.state': 'Tila',
  'report.csv.printedAt': 'Tulostettu',
  'report.csv.printer': 'Tulostin',
  'report.csv.detail': 'Lisätiedot',
  'report.csv.seenBy': 'Kenen tiedossa',
  'report.seenBy.service': 'palvelu',
  'report.seenBy.station': 'asema',
  'report.seenBy.both': 'molemmat',
  'report.title': 'Päivän päätös {day}',
  'report.manifests': 'manifestit: {printed}/{available} tulostettu',
  'report.serviceUnread': 'varoitus: palvelun listaa ei voitu lukea, luvut koskevat vain aseman omia töitä: {error}',
  'report.printMissingHint': 'Puuttuvat tulostetaan agentin käyttöliittymän Päivän päätös -välilehdeltä: "Tulosta puuttuvat".',
  'report.csvWritten': 'CSV-tiedosto: {file}',
  'report.detail.neverReached': 'ei koskaan tullut tälle asemalle',
  'report.detail.canceledAtService': 'lähetys peruttu palvelussa',
  'report.detail.canceledAtStation': 'lähetys peruttu tällä asemalla',
  'report.detail.atPrinter': 'tulostimella, mutta valmistumista ei ilmoitettu: tarkista tulostin',
  'report.detail.held': 'pidossa: automaattinen tulostus on keskeytetty',
  'report.detail.waiting.queued': 'odottaa jonossa (ei vielä aloitettu)',
  'report.detail.waiting.fetching': 'odottaa jonossa (haetaan)',
  'report.detail.waiting.spooling': 'odottaa jonossa (lähetetään tulostimelle)',
  'report.detail.canceledByHand': 'tarratyö peruttu käsin',
  'report.detail.onlyOtherDocument': 'ei tarratyötä: vain toinen asiakirja tulostettiin automaattisesti',
  'report.detail.notPrintedYet': 'ei vielä tulostettu',
};

export const REPORT_WORDS: Readonly<Record<ReportLanguage, ReportWords>> = { en, sv, da, nb, fi };

/**
 * A report word in `language` with its plural forms chosen (Intl.PluralRules of the language:
 * src/shared/plural.ts) and `{name}` replaced by params[name] (no number formatting: the callers format).
 */
export function reportWord(language: ReportLanguage, key: ReportKey, params: Readonly<Record<string, string | number>> = {}): string {
  return formatMessage(REPORT_WORDS[language][key], params, { plural: (n) => pluralRules(language).select(n) });
}

/** The word for `count` bookings in a state ("6 utskrivna", "1 utskriven"): the count tiles and the counts line. */
export const countWord = (language: ReportLanguage, what: EndOfDayState | 'booked', count: number): string =>
  reportWord(language, `eod.count.${what}`, { count });

const rules = new Map<ReportLanguage, Intl.PluralRules>();
function pluralRules(language: ReportLanguage): Intl.PluralRules {
  let made = rules.get(language);
  if (!made) rules.set(language, (made = new Intl.PluralRules(language)));
  return made;
}

export const stateWord = (language: ReportLanguage, state: EndOfDayState): string => REPORT_WORDS[language][`eod.state.${state}`];

export const seenByWord = (language: ReportLanguage, seenBy: EndOfDayRow['seenBy']): string =>
  REPORT_WORDS[language][`report.seenBy.${seenBy}`];

/** The report word of a report code (`report.waiting` and the like); null for any other message (a job's reason). */
export function reportDetailKey(message: AgentMessage | null | undefined): ReportKey | null {
  switch (message?.code) {
    case 'report.neverReached':
      return 'report.detail.neverReached';
    case 'report.canceledAtService':
      return 'report.detail.canceledAtService';
    case 'report.canceledAtStation':
      return 'report.detail.canceledAtStation';
    case 'report.atPrinter':
      return 'report.detail.atPrinter';
    case 'report.held':
      return 'report.detail.held';
    case 'report.waiting':
      return `report.detail.waiting.${message.params.state}`;
    case 'report.canceledByHand':
      return 'report.detail.canceledByHand';
    case 'report.onlyOtherDocument':
      return 'report.detail.onlyOtherDocument';
    case 'report.notPrintedYet':
      return 'report.detail.notPrintedYet';
    default:
      return null;
  }
}

/**
 * A row's detail in `language` where the report has words for it; a job's own reason (which
 * only the UI's catalogs word) and a detail without a code stay the English the agent composed.
 */
export function reportDetailWords(language: ReportLanguage, row: Pick<EndOfDayRow, 'detail' | 'detailMessage'>): string | null {
  if (row.detail === null) return null;
  const key = reportDetailKey(row.detailMessage);
  return key && Object.hasOwn(REPORT_WORDS[language], key) ? REPORT_WORDS[language][key] : row.detail;
}
