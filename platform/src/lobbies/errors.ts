import { publishedError } from '../http/published-errors.js';

/** Error codes of the lobby routes (platform/PROTOCOL.md §10.5 "Errors"). */
export const LobbyErrors = {
  unknownLobby: () => publishedError('UNKNOWN_LOBBY'),
  unknownChannel: () => publishedError('UNKNOWN_CHANNEL'),
  unknownMessage: () => publishedError('UNKNOWN_MESSAGE'),
  unknownInvite: () => publishedError('UNKNOWN_INVITE'),
  lobbyFull: (max: number) => publishedError('MAX_LOBBY_MEMBERS', { limit: max }),
  tooManyLobbies: (max: number) => publishedError('MAX_LOBBIES', { limit: max }),
  missingPermissions: () => publishedError('MISSING_PERMISSIONS'),
  notAuthor: () => publishedError('CANNOT_EDIT_OTHERS'),
  mergeRequired: () => publishedError('MERGE_REQUIRED'),
} as const;
