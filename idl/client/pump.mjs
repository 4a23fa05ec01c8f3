// The Client's the callback pump (svcpp additions): its part of the API surface (idl/surface.mjs assembles the areas).

/** Callbacks of this area (the vocabulary: idl/surface.mjs, above `callbacks`). */
export const callbacks = [];

/** This file's methods are core::Client's own (lifecycle, pump, status, token): no area service. */
export const area = null;

/** Methods of Client in this area (the vocabulary: idl/surface.mjs, above `types`). */
export const methods = [
  // callback pump (svcpp additions)
  {
    name: 'RunCallbacks',
    pump: true,
    doc: "Runs this client's queued callbacks on the calling thread. Nested pump of the same client: Busy.",
  },
  {
    name: 'RunCallbacksUpTo',
    pump: true,
    params: [{ name: 'maxCallbacks', type: 'u32', min: 1 }],
    doc:
      'RunCallbacks bounded: at most maxCallbacks of the queued callbacks, ' +
      'oldest first; the rest stay queued (the hook does\n' +
      'not fire for them: pump again while HasPendingCallbacks). ' +
      'Lets an event loop stay responsive however much arrived.',
  },
  { name: 'HasPendingCallbacks', const: true, returns: 'bool', doc: 'True when callbacks are queued.' },
  {
    name: 'SetCallbacksPendingHook',
    params: [{ name: 'hook', type: 'cb:CallbacksPendingFn', nullable: true }],
    doc:
      'Wakeup hook: fires when the queue goes from empty to non-empty (at most once until the next pump starts;\n' +
      'once at registration if work is already queued). A NULL hook clears it.',
  },
];
