// The Client's users: its part of the API surface (idl/surface.mjs assembles the areas).

/** Callbacks of this area (the vocabulary: idl/surface.mjs, above `callbacks`). */
export const callbacks = [];

/**
 * The core service the generated C layer calls for this file's methods (`client->Users().<Name>`);
 * a method may name another with its own `area` (null: core::Client itself).
 */
export const area = 'users';

/** Methods of Client in this area (the vocabulary: idl/surface.mjs, above `types`). */
export const methods = [
  // users
  {
    name: 'GetCurrentUserV2',
    const: true,
    returns: 'obj:UserHandle',
    optional: true,
    doc: 'The signed-in user; absent until Ready.',
  },
  {
    name: 'GetCurrentUser',
    const: true,
    returns: 'obj:UserHandle',
    optional: true,
    doc: 'Same as GetCurrentUserV2 (never a dummy handle).',
  },
  {
    name: 'GetUser',
    ts: { name: 'getUser', kind: 'lookup', snapshot: 'User', doc: 'A user from the cache (never fetches).' },
    const: true,
    params: [{ name: 'userId', type: 'u64' }],
    returns: 'obj:UserHandle',
    optional: true,
    doc: 'A user from the cache (never fetches); absent when unknown.',
  },
  {
    name: 'SetUserUpdatedCallback',
    params: [{ name: 'cb', type: 'cb:Client.UserUpdatedCallback', nullable: true }],
    doc: 'Single slot: a cached user changed. NULL clears it.',
  },
];
