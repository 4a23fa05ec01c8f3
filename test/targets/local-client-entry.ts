// The platform's standalone local client (`svcpp-platform rpc --platform <url>`, platform/src/rpc/cli.ts) as one
// JavaScript file for Windows' Node under Wine, where the repository's TypeScript runner has no binary: the test
// bundles this entry with esbuild (test/targets/wine-local-client.ts). Every AUTHORIZE is approved (there is no desktop
// user to ask); the desktop UI's JSON lines go to stdout, which the test reads from a file.
// Usage: node local-client.mjs <platform url> <desktop user> <application id to sign in with>
import { runStandaloneCli } from '../../platform/src/rpc/cli.js';

const [platformUrl, login, signInApp] = process.argv.slice(2);
if (!platformUrl || !login) throw new Error('usage: local-client.mjs <platform url> <desktop user> [<application id>]');
await runStandaloneCli({ platformUrl, login, ...(signInApp && { signInApp }), autoApprove: true, logFormat: 'json' });
