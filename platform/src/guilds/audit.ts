/** Audit-log action types the platform writes (published numbers; 192/193 use the published names). */
export const AuditAction = {
  CHANNEL_CREATE: 10,
  MEMBER_KICK: 20,
  MEMBER_PRUNE: 21,
  MEMBER_UPDATE: 24,
  MEMBER_ROLE_UPDATE: 25,
  ROLE_CREATE: 30,
  ROLE_UPDATE: 31,
  ROLE_DELETE: 32,
  INVITE_CREATE: 40,
  MESSAGE_DELETE: 72,
  MESSAGE_BULK_DELETE: 73,
  MESSAGE_PIN: 74,
  MESSAGE_UNPIN: 75,
  VOICE_CHANNEL_STATUS_CREATE: 192,
  VOICE_CHANNEL_STATUS_DELETE: 193,
} as const;
