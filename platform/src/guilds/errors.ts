import { ApiError } from '../http/errors.js';

/** Published error codes of the bot API (PROTOCOL.md §14.9). */
export const GuildErrors = {
  unknownChannel: () => new ApiError(404, 10003, 'Unknown Channel'),
  unknownGuild: () => new ApiError(404, 10004, 'Unknown Guild'),
  unknownInvite: () => new ApiError(404, 10006, 'Unknown Invite'),
  unknownMember: () => new ApiError(404, 10007, 'Unknown Member'),
  unknownMessage: () => new ApiError(404, 10008, 'Unknown Message'),
  unknownRole: () => new ApiError(404, 10011, 'Unknown Role'),
  missingAccess: () => new ApiError(403, 50001, 'Missing Access'),
  missingPermissions: () => new ApiError(403, 50013, 'Missing Permissions'),
  emptyMessage: () => new ApiError(400, 50006, 'Cannot send an empty message'),
  wrongChannelType: () => new ApiError(400, 50024, 'Cannot execute action on this channel type'),
  tooManyPins: () => new ApiError(400, 30003, 'Maximum number of pins reached (250)'),
  tooManyRoles: () => new ApiError(400, 30005, 'Maximum number of guild roles reached (250)'),
  replyWithoutHistory: () => new ApiError(400, 160002, 'Cannot reply without permission to read message history'),
  cannotForward: () => new ApiError(403, 160014, 'You cannot forward a message whose content you cannot read'),
  cannotEditOthers: () => new ApiError(403, 50005, 'Cannot edit a message authored by another user'),
  guildCreateRemoved: () => new ApiError(404, 0, '404: Not Found'),
};
