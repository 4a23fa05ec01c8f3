/**
 * The privileged-intent toggles of the portal (PROTOCOL.md §15): an application with fewer than 10,000 users may
 * switch an intent on itself, which grants the `_LIMITED` application flag; from 10,000 users it must apply
 * instead, so switching one on is refused (switching off always works). The user count is the application's
 * authorized users, as for the config's toggles.
 */
import { LIMITED_INTENTS_USER_THRESHOLD } from '../bot-api/applications/create.js';
import type { PlatformKernel } from '../kernel.js';
import type { ApplicationRecord } from '../store/types.js';
import { FormProblem } from './forms.js';

export type IntentToggle = 'presence' | 'guild_members' | 'message_content';

/** Each toggle's flags: the full grant (after review) and the `_LIMITED` one (by toggle). */
export const INTENT_FLAGS: Record<IntentToggle, { full: number; limited: number; label: string }> = {
  presence: { full: 1 << 12, limited: 1 << 13, label: 'Presence (GUILD_PRESENCES)' },
  guild_members: { full: 1 << 14, limited: 1 << 15, label: 'Server members (GUILD_MEMBERS)' },
  message_content: { full: 1 << 18, limited: 1 << 19, label: 'Message content (MESSAGE_CONTENT)' },
};

export const intentGranted = (app: ApplicationRecord, toggle: IntentToggle) =>
  (app.flags & (INTENT_FLAGS[toggle].full | INTENT_FLAGS[toggle].limited)) !== 0;

export function setPrivilegedIntents(
  ctx: PlatformKernel,
  app: ApplicationRecord,
  wanted: Record<IntentToggle, boolean>,
): ApplicationRecord {
  return ctx.store.transaction(() => {
    const users = ctx.store.grants.countForApplication(app.id);
    let flags = app.flags;
    const refused: Partial<Record<IntentToggle, string>> = {};
    for (const toggle of Object.keys(INTENT_FLAGS) as IntentToggle[]) {
      const { full, limited } = INTENT_FLAGS[toggle];
      if (!wanted[toggle]) {
        flags &= ~(full | limited);
        continue;
      }
      if (intentGranted(app, toggle)) continue;
      if (users >= LIMITED_INTENTS_USER_THRESHOLD) {
        refused[toggle] =
          `This application has ${users.toLocaleString('en-US')} users: ` +
          'from 10,000 users an application must apply for this privileged intent instead of switching it on.';
        continue;
      }
      flags |= limited;
    }
    if (Object.keys(refused).length > 0) throw new FormProblem(refused);
    const saved = { ...app, flags };
    ctx.store.applications.update(saved);
    return saved;
  });
}
