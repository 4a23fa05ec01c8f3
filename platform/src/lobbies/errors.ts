import { ApiError } from '../http/errors.js';

/** Error codes of the lobby routes (platform/PROTOCOL.md §10.5 "Errors"). */
export const LobbyErrors = {
  unknownLobby: () => new ApiError(404, 10031, 'Unknown Lobby'),
  unknownChannel: () => new ApiError(404, 10003, 'Unknown Channel'),
  unknownMessage: () => new ApiError(404, 10008, 'Unknown Message'),
  unknownInvite: () => new ApiError(404, 10006, 'Unknown Invite'),
  lobbyFull: (max: number) => new ApiError(400, 30050, `Maximum number of lobby members reached (${max})`),
  tooManyLobbies: (max: number) => new ApiError(400, 30051, `Maximum number of lobbies reached (${max})`),
  missingPermissions: () => new ApiError(403, 50013, 'Missing Permissions'),
  notAuthor: () => new ApiError(403, 50005, 'Cannot edit a message authored by another user'),
  mergeRequired: () => new ApiError(403, 530020, 'Provisional accounts must be merged into a full account first'),
} as const;
