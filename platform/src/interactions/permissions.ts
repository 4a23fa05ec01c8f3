/**
 * `app_permissions` of an interaction (PROTOCOL.md §17.2), always present:
 * - in a guild where the app's bot is a member: the bot's permissions in the channel;
 * - in a guild where it is not (a user-installed app): what @everyone may do in the channel;
 * - in a DM with other users: the DM base plus ATTACH_FILES, EMBED_LINKS and MENTION_EVERYONE;
 * - in the DM with the app's own bot: those plus USE_EXTERNAL_EMOJIS.
 * And the invoking user's upload limit, `attachment_size_limit`.
 */
import { Permission } from '../bot-api/guilds/permissions.js';

const DM_BASE =
  Permission.VIEW_CHANNEL |
  Permission.SEND_MESSAGES |
  Permission.READ_MESSAGE_HISTORY |
  Permission.ADD_REACTIONS |
  Permission.USE_APPLICATION_COMMANDS |
  Permission.USE_EXTERNAL_APPS;

export function dmAppPermissions(withOwnBot: boolean): bigint {
  const withOthers = DM_BASE | Permission.ATTACH_FILES | Permission.EMBED_LINKS | Permission.MENTION_EVERYONE;
  return withOwnBot ? withOthers | Permission.USE_EXTERNAL_EMOJIS : withOthers;
}

/** Published default per attachment: 10 MiB. */
export const DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024;
/** Upload limits by the user's subscription (`premium_type`: 1 classic, 2 full, 3 basic). */
const UPLOAD_LIMIT_BY_PREMIUM: Record<number, number> = {
  1: 50 * 1024 * 1024,
  2: 500 * 1024 * 1024,
  3: 50 * 1024 * 1024,
};

export function uploadLimitOf(premiumType: number): number {
  return Math.max(DEFAULT_UPLOAD_LIMIT, UPLOAD_LIMIT_BY_PREMIUM[premiumType] ?? 0);
}
