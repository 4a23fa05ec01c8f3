/**
 * Uploaded files as message attachments (PROTOCOL.md §14.4): the published limits — at most 10 per message, 10 MiB
 * each — and the published file-name sanitising, shared by messages, interaction responses and modal submissions.
 */
import type { PlatformKernel } from '../../kernel.js';
import { Errors } from '../../http/errors.js';
import type { UploadedFile } from '../../http/multipart.js';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from './schemas.js';
import { ATTACHMENT_IS_SPOILER, type StoredAttachment } from './serialize.js';
import { publishedError } from '../../http/published-errors.js';

/** Published: more files than a message may carry, however they came (with or without an `attachments` array). */
export const tooManyAttachments = () => publishedError('MAX_ATTACHMENTS', { limit: MAX_ATTACHMENTS });

/** The checks made before any file of a request is stored: the message would carry `count` attachments. */
export function checkUploads(count: number, files: readonly UploadedFile[]): void {
  if (count > MAX_ATTACHMENTS) throw tooManyAttachments();
  if (files.some((file) => file.data.length > MAX_ATTACHMENT_BYTES)) throw Errors.tooLarge();
}

/** Longest stored name (the longest `attachments[].filename` a request may give). */
const MAX_FILENAME = 1024;
/** OURS: the name of a file whose name keeps no character at all. */
const NAMELESS = 'unknown';

/**
 * The stored name of an uploaded file, as the published service makes it (it cleans names the way Werkzeug's
 * `secure_filename` does on a POSIX host): compatibility-decomposed and reduced to ASCII, `/` read as a space, runs
 * of white space joined with `_`, every character but `A–Z a–z 0–9 _ . -` dropped, leading and trailing `.` and `_`
 * trimmed. So `../../etc/passwd` is `etc_passwd`, `hello (world).png` is `hello_world.png`, `\` vanishes, and no
 * stored name is a path. `title`: when characters outside ASCII were dropped, the original name's last path
 * component (published: the title carries names the filename cannot).
 */
export function attachmentName(sent: string): { filename: string; title?: string } {
  const decomposed = sent.normalize('NFKD');
  const ascii = decomposed.replace(/[^\x00-\x7f]/g, '');
  const cleaned = ascii
    .replaceAll('/', ' ')
    // Python's str.split(): runs of white space, the ASCII separators 0x1c–0x1f included.
    .split(/[\s\x1c-\x1f]+/)
    .filter((word) => word !== '')
    .join('_')
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .replace(/^[._]+|[._]+$/g, '')
    .slice(0, MAX_FILENAME);
  const filename = cleaned === '' ? NAMELESS : cleaned;
  if (ascii === decomposed) return { filename };
  const title = (sent.split(/[/\\]/).pop() ?? '')
    .normalize('NFC')
    .replace(/[\x00-\x1f\x7f]/g, '')
    .slice(0, MAX_FILENAME);
  return title === '' ? { filename } : { filename, title };
}

/** What a request says about one file: its metadata in `attachments[]`, when it has some. */
export interface AttachmentMeta {
  filename?: string | undefined;
  description?: string | undefined;
  title?: string | undefined;
  is_spoiler?: boolean | undefined;
}

/**
 * Stores one uploaded file of a channel and returns its attachment: the sanitised name (from the metadata or the
 * part), spoiler by flag or the legacy `SPOILER_` prefix, the given title or the one the name needs.
 */
export function storeAttachment(
  ctx: PlatformKernel,
  channelId: string,
  file: UploadedFile,
  meta: AttachmentMeta = {},
): StoredAttachment {
  const { filename, title: nameTitle } = attachmentName(meta.filename ?? file.filename);
  const spoiler = meta.is_spoiler === true || filename.startsWith('SPOILER_');
  const title = meta.title ?? nameTitle;
  const id = ctx.ids.next();
  ctx.store.botGuilds.insertAttachment({ id, channelId, filename, contentType: file.contentType, data: file.data });
  return {
    id,
    filename,
    size: file.data.length,
    content_type: file.contentType,
    flags: spoiler ? ATTACHMENT_IS_SPOILER : 0,
    spoiler,
    ...(meta.description !== undefined && { description: meta.description }),
    ...(title !== undefined && { title }),
  };
}
