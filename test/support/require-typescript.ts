// vitest setup (vitest.config.ts): teaches Node's require the checkout's TypeScript, as `node --import tsx` does for
// the tests' child processes. lib/loader.ts requires the koffi binding when the koffi backend is chosen (it says
// why: loadBackend is synchronous), and a require goes to Node, past vitest's own transform, which cannot load
// bindings/koffi/generated.ts by its `.js` name without this hook.
import { register } from 'tsx/cjs/api';

/** Marks the process as hooked: a worker that runs several test files registers the hook once. */
const HOOKED = Symbol.for('svcpp.test.require-typescript');
const state = globalThis as { [HOOKED]?: true };
if (!state[HOOKED]) {
  register();
  state[HOOKED] = true;
}
