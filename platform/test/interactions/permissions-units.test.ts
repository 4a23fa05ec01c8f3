/** Unit tests of the DM `app_permissions` rules and the upload limits of interactions (PROTOCOL.md §17.2). */
import { describe, expect, it } from 'vitest';
import { Permission } from '../../src/bot-api/guilds/permissions.js';
import { DEFAULT_UPLOAD_LIMIT, dmAppPermissions, uploadLimitOf } from '../../src/interactions/permissions.js';

describe('app_permissions in direct messages', () => {
  it('a DM with other users includes ATTACH_FILES, EMBED_LINKS and MENTION_EVERYONE, not USE_EXTERNAL_EMOJIS', () => {
    const permissions = dmAppPermissions(false);
    for (const bit of [
      Permission.ATTACH_FILES,
      Permission.EMBED_LINKS,
      Permission.MENTION_EVERYONE,
      Permission.SEND_MESSAGES,
    ])
      expect(permissions & bit).toBe(bit);
    expect(permissions & Permission.USE_EXTERNAL_EMOJIS).toBe(0n);
  });

  it('the DM with the app’s own bot also includes USE_EXTERNAL_EMOJIS', () => {
    expect(dmAppPermissions(true)).toBe(dmAppPermissions(false) | Permission.USE_EXTERNAL_EMOJIS);
  });
});

describe('attachment_size_limit', () => {
  it('is 10 MiB by default and grows with the user’s subscription', () => {
    expect(uploadLimitOf(0)).toBe(DEFAULT_UPLOAD_LIMIT);
    expect(DEFAULT_UPLOAD_LIMIT).toBe(10 * 1024 * 1024);
    expect(uploadLimitOf(3)).toBe(50 * 1024 * 1024);
    expect(uploadLimitOf(2)).toBe(500 * 1024 * 1024);
  });
});
