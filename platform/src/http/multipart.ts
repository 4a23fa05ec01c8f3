/**
 * multipart/form-data bodies (PROTOCOL.md §14.4): the published form of requests that carry files. `payload_json`
 * holds the JSON body; every other file part is an upload (`files[n]`, `target_users_file`, …). Text parts other
 * than `payload_json` are taken as body fields. Parsed from the buffered body, so the body size limit applies.
 *
 * Nothing is dropped silently: a body with more file parts or more text fields than the limits below is refused
 * whole (`MultipartLimitError`), as the routes' own rules (10 files per message, …) apply to everything that came.
 */
import { Readable } from 'node:stream';
import busboy from 'busboy';

/** OURS: file parts and text fields one multipart body may carry (every route's own limit is lower). */
export const MAX_MULTIPART_FILES = 100;
export const MAX_MULTIPART_FIELDS = 100;

export interface UploadedFile {
  /** The form field name (`files[0]`, `target_users_file`). */
  field: string;
  /** As sent; routes that store files sanitise it (messages/attachments.ts). */
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

/** The body has more parts of one kind than MAX_MULTIPART_FILES / MAX_MULTIPART_FIELDS. */
export class MultipartLimitError extends Error {
  constructor(
    readonly kind: 'files' | 'fields',
    readonly limit: number,
  ) {
    super(`a multipart body has at most ${limit} ${kind}`);
    this.name = 'MultipartLimitError';
  }
}

export function parseMultipart(contentType: string, body: Buffer): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // A field can be as long as the (already size-limited) body: busboy's default would cut it at 1 MiB. File names
      // come whole (path parts included, so the routes' sanitising sees what was sent) and as UTF-8, as browsers and
      // HTTP client libraries send them (busboy would read them as Latin-1).
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { fields: MAX_MULTIPART_FIELDS, files: MAX_MULTIPART_FILES, fieldSize: body.length },
        preservePath: true,
        defParamCharset: 'utf8',
      });
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const result: MultipartBody = { payloadJson: null, fields: {}, files: [] };
    let overLimit: MultipartLimitError | undefined;
    // busboy stops emitting parts of a kind past its limit and says so once: the body is then refused, not cut.
    parser.on('filesLimit', () => (overLimit ??= new MultipartLimitError('files', MAX_MULTIPART_FILES)));
    parser.on('fieldsLimit', () => (overLimit ??= new MultipartLimitError('fields', MAX_MULTIPART_FIELDS)));
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
    parser.on('close', () => (overLimit ? reject(overLimit) : resolve(result)));
    Readable.from([body]).pipe(parser);
  });
}
