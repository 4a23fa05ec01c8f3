import { publishedError } from '../http/published-errors.js';

/** Published error codes of interactions and their webhook routes (PROTOCOL.md §17.6). */
export const InteractionErrors = {
  unknownInteraction: () => publishedError('UNKNOWN_INTERACTION'),
  unknownWebhook: () => publishedError('UNKNOWN_WEBHOOK'),
  invalidWebhookToken: () => publishedError('INVALID_WEBHOOK_TOKEN'),
  alreadyAcknowledged: () => publishedError('ALREADY_ACKNOWLEDGED'),
  followupLimit: () => publishedError('MAX_FOLLOWUPS'),
  notInstalled: () => publishedError('MISSING_ACCESS'),
};
