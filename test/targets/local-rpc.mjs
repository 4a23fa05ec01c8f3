// The SDK's local RPC client on a foreign target (Windows under Wine): a game with only its application id set (no
// sign-in, no gateway) finds the local platform client on its pipe by itself, and its commands go there — opening
// the connected-games settings, and setting the desktop user's rich presence (SET_ACTIVITY), as native/SEMANTICS.md
// "Local RPC" describes. Run by test/targets/scenario-suite.ts; the result goes to config.resultFile.
// Usage: node local-rpc.mjs <config.json>
import { readFileSync, writeFileSync } from 'node:fs';
import { ActivityTypes, Client, LoggingSeverity } from 'svcpp';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const log = [];
const finish = (result) =>
  writeFileSync(
    config.resultFile,
    JSON.stringify({ ...result, log, system: `${process.platform}-${process.arch}` }, null, 2),
  );

async function scenario() {
  const client = new Client({
    backend: config.backend,
    applicationId: BigInt(config.applicationId),
    logMinSeverity: LoggingSeverity.Verbose,
  });
  client.on('log', (message) => log.push(message));
  try {
    // The SDK connects to the local client as soon as the application id is set, retrying every 0.5–10 s: until the
    // handshake is done a command fails with a retryable RPCError ("no local platform client is running").
    const deadline = Date.now() + config.waitMs;
    let attempts = 0;
    for (;;) {
      attempts++;
      try {
        await client.openConnectedGamesSettingsInPlatform();
        break;
      } catch (error) {
        if (!error?.retryable || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    // Without a gateway session, rich presence goes to the local client, which sets it for the desktop user.
    await client.updateRichPresence({ type: ActivityTypes.Playing, state: `On the desktop (${config.backend})` });
    return { attempts };
  } finally {
    await client.close();
  }
}

try {
  finish({ ok: true, ...(await scenario()) });
} catch (error) {
  finish({ ok: false, error: String(error?.stack ?? error), code: error?.code });
  process.exitCode = 1;
}
