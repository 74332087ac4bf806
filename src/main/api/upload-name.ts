/**
 * The file name sent with an uploaded document. It comes from the packer's browser and goes
 * into the multipart part's headers and the service's records: control characters (NUL, ESC,
 * a line break) are dropped, it is cut to 255 characters (what the bridge accepts, and what
 * the envelope allowance in UPLOAD_ENVELOPE_BYTES counts on), and a name left empty becomes
 * `<document type>.pdf`.
 */
import { stripControls } from '../log-text';

/** Longest file name sent, in characters. */
export const MAX_UPLOAD_NAME = 255;

export function uploadFileName(name: string, documentType: string): string {
  const clean = stripControls(name).trim().slice(0, MAX_UPLOAD_NAME);
  return clean === '' ? `${documentType}.pdf` : clean;
}
