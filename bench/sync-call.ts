// Cost of one synchronous call across the binding: reading AuthorizationArgs scopes through N-API, through
// koffi, and reading a plain JavaScript object property as the baseline. Prints ns per call (wall clock, and the
// process's CPU time per call, which a machine shared with other work inflates far less); asserts nothing.
//   node --import tsx bench/sync-call.ts [--smoke]     (--smoke: ~1 s in total, for CI)
import { loadBackend } from '../lib/index.js';

const smoke = process.argv.includes('--smoke');
const BUDGET_MS = smoke ? 250 : 2000; // per case
const SCOPES = 'openid sdk.social_layer';

/** Runs fn in growing batches until the time budget is spent; returns [wall, CPU] ns per call. */
function measure(fn: () => unknown): [number, number] {
  let sink = 0;
  for (let i = 0; i < 10_000; i++) sink += (fn() as string).length; // warm-up (JIT, inline caches)
  let batch = 10_000;
  let calls = 0;
  let elapsed = 0n;
  let cpuMicros = 0;
  const deadline = process.hrtime.bigint() + BigInt(BUDGET_MS) * 1_000_000n;
  while (process.hrtime.bigint() < deadline) {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) sink += (fn() as string).length;
    elapsed += process.hrtime.bigint() - start;
    const cpu = process.cpuUsage(cpuStart);
    cpuMicros += cpu.user + cpu.system;
    calls += batch;
    batch = Math.min(batch * 2, 1_000_000);
  }
  if (sink === -1) console.log(sink); // keep the results alive
  return [Number(elapsed) / calls, (cpuMicros * 1000) / calls];
}

const plain = { scopes: SCOPES };
const napi = loadBackend('napi');
const napiArgs = napi.AuthorizationArgs_Init();
napi.AuthorizationArgs_SetScopes(napiArgs, SCOPES);
const koffi = loadBackend('koffi');
const koffiArgs = koffi.AuthorizationArgs_Init();
koffi.AuthorizationArgs_SetScopes(koffiArgs, SCOPES);

// The targets of the JS <-> native edge: a synchronous N-API call within 100 ns, a koffi call within 400 ns.
const rows = [
  ['plain JS object property', measure(() => plain.scopes), undefined],
  ['N-API  AuthorizationArgs_Scopes', measure(() => napi.AuthorizationArgs_Scopes(napiArgs)), 100],
  ['koffi  AuthorizationArgs_Scopes', measure(() => koffi.AuthorizationArgs_Scopes(koffiArgs)), 400],
] as const;

console.log(`sync call: read AuthorizationArgs scopes (${SCOPES.length} bytes)${smoke ? ' [smoke]' : ''}`);
for (const [name, [ns, cpuNs], target] of rows) {
  const vsTarget = target
    ? `  (target ≤ ${target} ns: ${(ns / target).toFixed(2)}x wall, ${(cpuNs / target).toFixed(2)}x CPU)`
    : '';
  console.log(
    `  ${name.padEnd(34)} ${ns.toFixed(1).padStart(9)} ns/call  ${cpuNs.toFixed(1).padStart(9)} ns CPU/call${vsTarget}`,
  );
}
napi.AuthorizationArgs_Drop(napiArgs);
koffi.AuthorizationArgs_Drop(koffiArgs);
