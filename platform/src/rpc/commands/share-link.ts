/**
 * SHARE_LINK (PROTOCOL.md §18.5): an activity asks the client to share a link to it, with the message shown next to
 * the link and the developer's `custom_id` attached to it (published limits: message ≤ 1000 characters, custom_id
 * and link_id ≤ 64). `referrer_id` was removed from shareLink and passing it "fails silently" (published): it is
 * dropped without an error and never reaches the shared link. The local client has no window: it records the share
 * for a desktop front end (DesktopUi) and answers as a client whose user copied the link.
 */
import { z } from 'zod';
import { parseArgs, type CommandHandler } from './types.js';

export const SHARE_LINK_MESSAGE_MAX = 1000;
export const SHARE_LINK_ID_MAX = 64;

// A plain object: unknown keys (`referrer_id` among them) are dropped, not refused.
const shareLinkArgs = z.object({
  message: z.string().max(SHARE_LINK_MESSAGE_MAX),
  custom_id: z.string().max(SHARE_LINK_ID_MAX).optional(),
  link_id: z.string().max(SHARE_LINK_ID_MAX).optional(),
});

export const shareLink: CommandHandler = (env, connection, { args }) => {
  const parsed = parseArgs(shareLinkArgs, args);
  env.desktop.record({
    kind: 'share-link',
    applicationId: connection.app.id,
    message: parsed.message,
    customId: parsed.custom_id ?? null,
    linkId: parsed.link_id ?? null,
  });
  return { data: { success: true, didCopyLink: true, didSendMessage: false } };
};
