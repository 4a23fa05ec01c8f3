// The Client's the local client (native/SEMANTICS.md "Local RPC"): its part of the API surface (idl/surface.mjs
// assembles the areas).

/** Callbacks of this area (the vocabulary: idl/surface.mjs, above `callbacks`). */
export const callbacks = [
  // local client (native/SEMANTICS.md "Local RPC")
  {
    name: 'Client.OpenMessageInPlatformCallback',
    doc: 'OpenMessageInPlatform finished (RPCError when no local platform client runs).',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.OpenConnectedGamesSettingsInPlatformCallback',
    doc: 'OpenConnectedGamesSettingsInPlatform finished (RPCError when no local platform client runs).',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
];

/** Methods of Client in this area (the vocabulary: idl/surface.mjs, above `types`). */
export const methods = [];
