import { ApiError } from '../../http/errors.js';
import { publishedError } from '../../http/published-errors.js';

/** Published error codes of the bot API (PROTOCOL.md §14.9). */
export const GuildErrors = {
  unknownChannel: () => publishedError('UNKNOWN_CHANNEL'),
  unknownGuild: () => publishedError('UNKNOWN_GUILD'),
  unknownInvite: () => publishedError('UNKNOWN_INVITE'),
  unknownMember: () => publishedError('UNKNOWN_MEMBER'),
  unknownMessage: () => publishedError('UNKNOWN_MESSAGE'),
  unknownRole: () => publishedError('UNKNOWN_ROLE'),
  missingAccess: () => publishedError('MISSING_ACCESS'),
  missingPermissions: () => publishedError('MISSING_PERMISSIONS'),
  emptyMessage: () => publishedError('EMPTY_MESSAGE'),
  wrongChannelType: () => publishedError('WRONG_CHANNEL_TYPE'),
  tooManyPins: () => publishedError('MAX_PINS'),
  tooManyRoles: () => publishedError('MAX_ROLES'),
  replyWithoutHistory: () => publishedError('REPLY_WITHOUT_HISTORY'),
  cannotForward: () => publishedError('CANNOT_FORWARD'),
  cannotEditOthers: () => publishedError('CANNOT_EDIT_OTHERS'),
  guildCreateRemoved: () => new ApiError(404, 0, '404: Not Found'),
};
