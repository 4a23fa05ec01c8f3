// The dispatch drain of the SDK alone (bench/support/dispatch-drain.ts), on both backends, against a platform that is
// already running: what the cross targets' suite (test/targets/) runs with the target's own Node under Wine and
// qemu-user, where the platform cannot run, while it runs natively beside them. bench/gateway.ts measures the same
// drain on this machine next to a plain client.
// Prints figures; asserts nothing.   node --import tsx bench/dispatch-sdk.ts <platform.json> [--smoke]
//   platform.json: { apiBase, webBase, caFile?, botToken, applicationId, queueMs? }
import { readFileSync } from 'node:fs';
import { Client, SvcppServer } from '../lib/index.js';
import { drainRounds, formatRate, sdkContender, summarize, type DrainPlan } from './support/dispatch-drain.js';

interface PlatformConfig {
  apiBase: string;
  webBase: string;
  caFile?: string;
  botToken: string;
  applicationId: string;
  /** How long the stream is given to arrive while the JS thread is held (an emulator receives more slowly). */
  queueMs?: number;
}

const configFile = process.argv[2];
if (!configFile || configFile.startsWith('--')) throw new Error('usage: dispatch-sdk.ts <platform.json> [--smoke]');
const config = JSON.parse(readFileSync(configFile, 'utf8')) as PlatformConfig;
const smoke = process.argv.includes('--smoke');
const plan: DrainPlan = {
  dispatches: smoke ? 2_000 : 20_000,
  queueMs: config.queueMs ?? 2_000,
  rounds: 3,
  warmUpRounds: 1,
};
const server = new SvcppServer({
  apiBase: config.apiBase,
  botToken: config.botToken,
  applicationId: config.applicationId,
  ...(config.caFile ? { ca: readFileSync(config.caFile, 'utf8') } : {}),
});

let players = 0;
const connected = (backend: 'napi' | 'koffi') => async () => {
  players += 1;
  const { accessToken } = await server.createProvisionalToken({ externalUserId: `dispatch-${process.pid}-${players}` });
  const client = new Client({
    backend,
    apiBase: config.apiBase,
    webBase: config.webBase,
    ...(config.caFile ? { caFile: config.caFile } : {}),
  });
  await client.updateToken(accessToken);
  await client.connect();
  return client;
};

const drains = await drainRounds(
  [
    ['SDK napi', sdkContender(connected('napi'), 'payload')],
    ['SDK koffi', sdkContender(connected('koffi'), 'payload')],
  ],
  config,
  plan,
);
console.log(
  `dispatch drain on ${process.platform}-${process.arch} ` +
    `(${plan.dispatches} USER_UPDATE dispatches × ${plan.rounds} rounds after ${plan.warmUpRounds} warm-up, median; ` +
    'the handler reads the user the event carries)',
);
for (const [name, runs] of drains) {
  const { perSecond, worst, cpuNs } = summarize(runs);
  console.log(
    `  ${name.padEnd(10)} ${formatRate(perSecond)} dispatches/s (worst ${formatRate(worst)}), ` +
      `${(cpuNs / 1000).toFixed(2)} µs CPU each`,
  );
}
