/**
 * multipart/form-data bodies (PROTOCOL.md §14.4): the published form of requests that carry files. `payload_json`
 * holds the JSON body; every other file part is an upload (`files[n]`, `target_users_file`, …). Text parts other
 * than `payload_json` are taken as body fields. Parsed from the buffered body, so the body size limit applies.
 */
import { Readable } from 'node:stream';
import busboy from 'busboy';

export interface UploadedFile {
  /** The form field name (`files[0]`, `target_users_file`). */
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartBody {
  /** `payload_json` when present (unparsed), else null. */
  payloadJson: string | null;
  fields: Record<string, string>;
  files: UploadedFile[];
}

export function parseMultipart(contentType: string, body: Buffer): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, limits: { fields: 100, files: 100 } });
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const result: MultipartBody = { payloadJson: null, fields: {}, files: [] };
    parser.on('field', (name, value) => {
      if (name === 'payload_json') result.payloadJson = value;
      else result.fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const data = Buffer.concat(chunks);
        // A `payload_json` sent as a file part (some clients do) is still the JSON body.
        if (field === 'payload_json') result.payloadJson = data.toString('utf8');
        else result.files.push({ field, filename: info.filename ?? field, contentType: info.mimeType, data });
      });
    });
    parser.on('error', (error: Error) => reject(error));
    parser.on('close', () => resolve(result));
    Readable.from([body]).pipe(parser);
  });
}
