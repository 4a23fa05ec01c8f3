/**
 * Bodies of the interaction routes (PROTOCOL.md §17.3): the callback `{type, data}` whose `data` depends on the
 * type (a message for 4/5/7, a modal for 9, nothing for 6/10/12), and the webhook message bodies of the original
 * response and follow-ups (the message rules of the channel routes, plus EPHEMERAL and, on a deferred edit, poll).
 */
import { z } from 'zod';
import { createMessageSchema, editMessageSchema } from '../bot-api/messages/schemas.js';
import { parseBody } from '../http/validation.js';

export const webhookMessageSchema = createMessageSchema.extend({
  // Published webhook-execution fields that do not apply to interaction tokens; accepted and ignored.
  username: z.string().max(80).optional(),
  avatar_url: z.string().max(2048).optional(),
  tts: z.boolean().optional(),
});
export type WebhookMessageBody = Partial<z.output<typeof webhookMessageSchema>>;

export const webhookEditSchema = editMessageSchema.extend({ poll: z.looseObject({}).nullish() });
export type WebhookEditBody = z.output<typeof webhookEditSchema>;

/** The envelope; `data` is checked per type by `parseCallback`. */
export const callbackSchema = z.object({
  type: z.literal([1, 4, 5, 6, 7, 8, 9, 10, 12]),
  data: z.looseObject({}).optional(),
});

export interface CallbackBody {
  type: number;
  /** The message of types 4, 5 and 7. */
  data?: WebhookMessageBody;
  /** `data` as sent (the modal of type 9 is checked by modal.ts). */
  rawData?: unknown;
}

const messageCallback = z.object({ type: z.number(), data: webhookMessageSchema.optional() });

/** Checks the envelope, then the message of types 4/5/7 (errors under `data`). */
export function parseCallback(input: unknown): CallbackBody {
  const envelope = parseBody(callbackSchema, input);
  if (envelope.type === 4 || envelope.type === 5 || envelope.type === 7) {
    const parsed = parseBody(messageCallback, input);
    return { type: envelope.type, ...(parsed.data !== undefined && { data: parsed.data }), rawData: envelope.data };
  }
  return { type: envelope.type, rawData: envelope.data };
}
