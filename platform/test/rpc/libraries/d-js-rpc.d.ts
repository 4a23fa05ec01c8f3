/** d-js-rpc ships no types: it is a fork of discord-rpc whose Client takes the same calls, plus an activity `type`. */
declare module 'd-js-rpc' {
  import type { Presence } from 'discord-rpc';
  export { Client } from 'discord-rpc';
  export const ActivityTypes: { Playing: 0; Listening: 2; Watching: 3; Competing: 5 };
  export type TypedPresence = Presence & { type?: number };
}
