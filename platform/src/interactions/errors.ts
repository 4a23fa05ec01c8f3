import { ApiError } from '../http/errors.js';

/** Published error codes of interactions and their webhook routes (PROTOCOL.md §17.6). */
export const InteractionErrors = {
  unknownInteraction: () => new ApiError(404, 10062, 'Unknown interaction'),
  unknownWebhook: () => new ApiError(404, 10015, 'Unknown Webhook'),
  invalidWebhookToken: () => new ApiError(401, 50027, 'Invalid Webhook Token'),
  alreadyAcknowledged: () => new ApiError(400, 40060, 'Interaction has already been acknowledged.'),
  followupLimit: () => new ApiError(400, 40094, 'This interaction has hit the maximum number of follow up messages'),
  notInstalled: () => new ApiError(403, 50001, 'Missing Access'),
};
