import { HttpError } from '../http';
import { route, type Route } from '../router';
import { isBooked } from '../store';

/** Spec, Enumerations: upload `{document_type}`. */
export const UPLOAD_TYPES: ReadonlySet<string> = new Set(['customsinvoice', 'abd', 'salesinvoice', 'adr_dangerousgoods']);

const PDF_MAGIC = Buffer.from('%PDF-');

export const uploadRoutes: readonly Route[] = [
  route('POST', '/shipments/:id/:document_type', async ({ state, params, headers, raw }) => {
    const shipment = state.shipment(params['id']!);
    const type = params['document_type']!;
    if (!UPLOAD_TYPES.has(type)) {
      throw new HttpError(400, 'unknown_document_type', `Cannot upload "${type}": use one of ${[...UPLOAD_TYPES].join(', ')}.`);
    }
    const contentType = headers['content-type'] ?? '';
    if (!/^multipart\/form-data\b/i.test(contentType)) {
      throw new HttpError(415, 'unsupported_media_type', 'Upload as multipart/form-data with a single part named "file".');
    }
    if (isBooked(shipment) || shipment.status === 'CANCELED') {
      const code = isBooked(shipment) ? 'shipment_booked' : 'shipment_canceled';
      throw new HttpError(409, code, `Documents are uploaded before booking; shipment ${shipment.id} is ${shipment.status}.`);
    }
    let form: FormData;
    try {
      const body = await raw();
      const bytes = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
      form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw new HttpError(400, 'invalid_multipart', 'The multipart body could not be parsed.');
    }
    const parts: Array<[string, File | string]> = [];
    form.forEach((value, key) => parts.push([key, value]));
    const file = parts[0]?.[1];
    if (parts.length !== 1 || parts[0]?.[0] !== 'file' || typeof file === 'string' || !file) {
      throw new HttpError(400, 'invalid_multipart', 'Send exactly one part, named "file", holding the PDF.');
    }
    const bytes = Buffer.from(await file.arrayBuffer());
    if (bytes.length < PDF_MAGIC.length || !bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) {
      throw new HttpError(415, 'not_a_pdf', 'The uploaded file is not a PDF (it must start with %PDF-).');
    }
    shipment.uploads.add(type);
    return { status: 204 };
  }),
];
