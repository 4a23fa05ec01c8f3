/**
 * A user's submission of a modal (the developer route, PROTOCOL.md §17.4), checked against the modal the
 * application opened: required fields, text lengths, chosen options among the offered ones and their counts,
 * uploaded files (count, size under the user's upload limit, `file_types`). Produces the MODAL_SUBMIT `data`.
 */
import { fieldError } from '../http/errors.js';
import type { UploadedFile } from '../http/multipart.js';
import { attachmentName } from '../bot-api/messages/attachments.js';
import { ComponentType } from './modal.js';
import { isSnowflake } from '../ids/snowflake.js';

export type SubmittedValue = string | string[] | boolean;

type Node = Record<string, unknown>;

const MEDIA_FAMILIES = new Set(['image', 'video', 'audio']);

/** A file matches `file_types` by its media family (`image/png` → image) or by its extension. */
function allowedType(file: UploadedFile, types: string[] | undefined): boolean {
  if (!types || types.length === 0) return true;
  const family = file.contentType.split('/')[0]!.toLowerCase();
  // The extension of the name the file is stored under (a sent name may carry a path).
  const extension = /\.[^.]+$/.exec(attachmentName(file.filename).filename)?.[0]?.toLowerCase();
  return types.some((t) => (MEDIA_FAMILIES.has(t) ? t === family : t === extension));
}

export interface SubmitInput {
  values: Record<string, SubmittedValue>;
  /** Uploaded files; `field` is `files[<custom_id>]` or the custom id itself. */
  files: UploadedFile[];
  /** The invoking user's upload limit in the channel (bytes). */
  uploadLimit: number;
  /** Stores one file and returns its attachment object. */
  storeFile: (file: UploadedFile) => Record<string, unknown> & { id: string };
}

function valueOf(input: SubmitInput, customId: string): SubmittedValue | undefined {
  return Object.hasOwn(input.values, customId) ? input.values[customId] : undefined;
}

function submitted(
  path: Array<string | number>,
  node: Node,
  input: SubmitInput,
): { value?: unknown; values?: unknown } {
  const customId = node.custom_id as string;
  const at = [...path, customId];
  const raw = valueOf(input, customId);
  const required = node.required === true;
  const list = (): string[] => {
    if (raw === undefined) return [];
    if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string'))
      throw fieldError(at, 'BASE_TYPE_INVALID', 'Expected a list of strings.');
    return raw;
  };
  const offered = () => new Set(((node.options as Node[] | undefined) ?? []).map((o) => o.value as string));
  const countCheck = (count: number) => {
    const min = required ? Math.max(1, Number(node.min_values ?? 1)) : 0;
    const max = Number(node.max_values ?? 1);
    if (count < min || count > max)
      throw fieldError(at, 'COMPONENT_VALUES_COUNT_INVALID', `Choose between ${min} and ${max}.`);
  };
  switch (node.type) {
    case ComponentType.TEXT_INPUT: {
      if (raw !== undefined && typeof raw !== 'string')
        throw fieldError(at, 'STRING_TYPE_CONVERT', 'Could not interpret the value as string.');
      const value = raw ?? '';
      if (value === '' && required) throw fieldError(at, 'BASE_TYPE_REQUIRED', 'This field is required');
      if (value !== '' && (value.length < Number(node.min_length) || value.length > Number(node.max_length))) {
        throw fieldError(
          at,
          'BASE_TYPE_BAD_LENGTH',
          `Must be between ${String(node.min_length)} and ${String(node.max_length)} in length.`,
        );
      }
      return { value };
    }
    case ComponentType.STRING_SELECT:
    case ComponentType.CHECKBOX_GROUP: {
      const values = list();
      const known = offered();
      if (values.some((v) => !known.has(v)) || new Set(values).size !== values.length)
        throw fieldError(at, 'COMPONENT_VALUE_INVALID', 'Only offered options may be chosen, once each.');
      if (values.length > 0 || required) countCheck(values.length);
      else if (node.min_values !== undefined && values.length < Number(node.min_values)) countCheck(values.length);
      return { values };
    }
    case ComponentType.USER_SELECT:
    case ComponentType.ROLE_SELECT:
    case ComponentType.MENTIONABLE_SELECT:
    case ComponentType.CHANNEL_SELECT: {
      const values = list();
      if (values.some((v) => !isSnowflake(v)))
        throw fieldError(at, 'COMPONENT_VALUE_INVALID', 'Values are snowflakes.');
      if (values.length > 0 || required) countCheck(values.length);
      return { values };
    }
    case ComponentType.RADIO_GROUP: {
      // Exactly one option is chosen; a group that is not required may be left empty.
      if (raw === undefined || raw === '') {
        if (required) throw fieldError(at, 'BASE_TYPE_REQUIRED', 'This field is required');
        return { value: null };
      }
      if (typeof raw !== 'string' || !offered().has(raw))
        throw fieldError(at, 'COMPONENT_VALUE_INVALID', 'Only an offered option may be chosen.');
      return { value: raw };
    }
    case ComponentType.CHECKBOX: {
      if (raw !== undefined && typeof raw !== 'boolean')
        throw fieldError(at, 'BOOLEAN_TYPE_CONVERT', 'Must be either true or false.');
      const value = raw ?? node.default === true;
      if (required && value !== true) throw fieldError(at, 'BASE_TYPE_REQUIRED', 'This field is required');
      return { value };
    }
    case ComponentType.FILE_UPLOAD: {
      const files = input.files.filter((f) => f.field === customId || f.field === `files[${customId}]`);
      if (files.length > 0 || required) countCheck(files.length);
      for (const file of files) {
        if (file.data.length > input.uploadLimit)
          throw fieldError(at, 'FILE_UPLOAD_TOO_LARGE', `Files must be ${input.uploadLimit} bytes or smaller.`);
        if (!allowedType(file, node.file_types as string[] | undefined))
          throw fieldError(at, 'FILE_UPLOAD_TYPE_NOT_ALLOWED', 'This file type is not accepted here.');
      }
      return { values: files };
    }
    default:
      return {};
  }
}

/** Returns the MODAL_SUBMIT `data` (with `resolved.attachments` when files came). */
export function submitModal(modal: Node, input: SubmitInput): Record<string, unknown> {
  const path = ['values'];
  const known = new Set<string>();
  const attachments: Record<string, unknown> = {};
  const answer = (node: Node): Node => {
    const result = submitted(path, node, input);
    if (node.type === ComponentType.FILE_UPLOAD) {
      const ids = (result.values as UploadedFile[]).map((file) => {
        const stored = input.storeFile(file);
        attachments[stored.id] = stored;
        return stored.id;
      });
      return { type: node.type, id: node.id, custom_id: node.custom_id, values: ids };
    }
    return { type: node.type, id: node.id, custom_id: node.custom_id, ...result };
  };
  // Check everything before storing any file: a refused submission changes nothing.
  const uploads = new Set<string>();
  const check = (node: Node) => {
    known.add(node.custom_id as string);
    if (node.type === ComponentType.FILE_UPLOAD) uploads.add(node.custom_id as string);
    submitted(path, node, input);
  };
  for (const top of modal.components as Node[]) {
    if (top.type === ComponentType.LABEL) check(top.component as Node);
    if (top.type === ComponentType.ACTION_ROW) check((top.components as Node[])[0]!);
  }
  const unknown = Object.keys(input.values).find((id) => !known.has(id));
  if (unknown !== undefined)
    throw fieldError([...path, unknown], 'COMPONENT_UNKNOWN', 'The modal has no component with this custom id.');
  // A file for no File Upload component is refused, never dropped (its field is `files[<custom_id>]` or the id).
  const stray = input.files
    .map((file) => /^files\[(.*)\]$/.exec(file.field)?.[1] ?? file.field)
    .find((id) => !uploads.has(id));
  if (stray !== undefined)
    throw fieldError(
      [...path, stray],
      'COMPONENT_UNKNOWN',
      'The modal has no File Upload component with this custom id.',
    );
  const components = (modal.components as Node[]).map((top) => {
    if (top.type === ComponentType.LABEL)
      return { type: top.type, id: top.id, component: answer(top.component as Node) };
    if (top.type === ComponentType.ACTION_ROW)
      return { type: top.type, id: top.id, components: [answer((top.components as Node[])[0]!)] };
    return { type: top.type, id: top.id };
  });
  return {
    custom_id: modal.custom_id,
    components,
    ...(Object.keys(attachments).length > 0 && { resolved: { attachments } }),
  };
}
