// The hand-written half of the koffi binding, put together for the generated half (generated.ts): each part has one
// job and its own file — value conversion (marshal.ts), handles (handles.ts), callback registrations
// (registrations.ts), deferred delivery of callbacks (delivery.ts) and the per-client pump (pump.ts). Everything here
// is about marshalling and delivery; the SDK's behaviour lives behind the C ABI.
import { DeferredDelivery } from './delivery.js';
import type { ErrcErrorFactory } from './error-factory.js';
import { KoffiHandles, type HandleFunctions } from './handles.js';
import { KoffiMarshal, type MarshalFunctions } from './marshal.js';
import { ClientPumps, type PumpFunctions } from './pump.js';
import { CallbackRegistrations } from './registrations.js';

/** The C functions the runtime's parts call (the generated binding binds them). */
export interface RuntimeFunctions extends MarshalFunctions, HandleFunctions, PumpFunctions {}

export interface KoffiRuntime {
  marshal: KoffiMarshal;
  handles: KoffiHandles;
  callbacks: CallbackRegistrations;
  delivery: DeferredDelivery;
  pumps: ClientPumps;
}

/** The runtime of one koffi API over the library whose functions `fns` are; `errors` makes every error it throws. */
export function createKoffiRuntime(fns: RuntimeFunctions, errors: ErrcErrorFactory): KoffiRuntime {
  const marshal = new KoffiMarshal(fns, errors);
  const delivery = new DeferredDelivery();
  // A registration wakes the pumps, and the pumps read the registrations' record decoders: made in that order, the
  // registrations reach the pumps through this binding, set right after.
  let pumps: ClientPumps | undefined;
  const callbacks = new CallbackRegistrations(delivery, () => pumps?.wake());
  pumps = new ClientPumps(fns, marshal, delivery, callbacks);
  const clientPumps = pumps;
  const handles = new KoffiHandles(fns, marshal, {
    adopted: (struct) => clientPumps.start(struct),
    collected: (struct) => delivery.pumping(() => clientPumps.dropClient(struct)),
  });
  return { marshal, handles, callbacks, delivery, pumps: clientPumps };
}
