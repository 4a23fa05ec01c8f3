/**
 * The `{emoji}` of the reaction routes (PROTOCOL.md §14.4 "Reactions"): a unicode emoji, or a custom emoji as
 * `name:id` — URL-decoded by the router. Lenient in the forms libraries send: the message-text form `<:name:id>`
 * and the animated prefix `a:` are taken too.
 */

import type { ReactionEmoji } from '../../store/reaction-types.js';
import { publishedError } from '../../http/published-errors.js';

/** A fully-qualified emoji sequence (flags, keycaps, skin tones, ZWJ sequences). */
const RGI_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');
/** A pictograph without its variation selector (`❤` for `❤️`), as some clients send it. */
const BARE_PICTOGRAPH = /^\p{Extended_Pictographic}\uFE0F?$/u;
const CUSTOM = /^(?:<?(a)?:)?(\w{2,32}):(\d{1,20})>?$/;

export const unknownEmoji = () => publishedError('UNKNOWN_EMOJI_IN_REACTION');

/** The emoji named by the path, or 10014 Unknown Emoji for anything that is not one. */
export function parseEmoji(param: string): ReactionEmoji {
  const custom = CUSTOM.exec(param);
  if (custom) return { id: custom[3]!, name: custom[2]!, animated: custom[1] === 'a' };
  if (RGI_EMOJI.test(param) || BARE_PICTOGRAPH.test(param)) return { id: null, name: param, animated: false };
  throw unknownEmoji();
}
