/** The published numbers of local RPC (PROTOCOL.md §12): frame opcodes, error codes and CLOSE codes. */

export const Op = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2, PING: 3, PONG: 4 } as const;

/** `data.code` of an ERROR response. */
export const RpcError = {
  UNKNOWN: 1000,
  INVALID_PAYLOAD: 4000,
  INVALID_COMMAND: 4002,
  INVALID_GUILD: 4003,
  INVALID_EVENT: 4004,
  INVALID_PERMISSIONS: 4006,
  INVALID_CLIENT_ID: 4007,
  INVALID_TOKEN: 4009,
  INVALID_USER: 4010,
  OAUTH2_ERROR: 5000,
} as const;

/** `code` of a CLOSE frame. 1003 ("unsupported") is the close for a stream we cannot read on. */
export const RpcClose = {
  NORMAL: 1000,
  UNSUPPORTED: 1003,
  INVALID_CLIENT_ID: 4000,
  RATE_LIMITED: 4002,
  TOKEN_REVOKED: 4003,
  INVALID_VERSION: 4004,
} as const;

/** Frames larger than this are refused (the published client's cap). */
export const MAX_FRAME_BYTES = 64 * 1024;
