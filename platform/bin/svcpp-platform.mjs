#!/usr/bin/env node
// Starts the svcpp platform. In a repository checkout it runs the TypeScript sources through tsx (no build
// step, never a stale build); an installed package without sources runs the compiled dist/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HELP = `Usage: svcpp-platform [rpc] [options]
       svcpp-platform rpc --platform <url> --login <user> [--sign-in-app <id>] [--auto-approve] [--rpc-dir <dir>]

  rpc                      also start the local client (local RPC on discord-ipc-{0..9}, PROTOCOL.md §12)

The local client on its own (PROTOCOL.md §12.8), for a platform already running elsewhere:
  --platform <url>         the platform's base URL (http://127.0.0.1:8787); with it, no platform is started here
  --login <user>           the desktop user: signs in on the platform's OAuth2 consent form with this username and
                           the password in the environment variable SVCPP_PASSWORD (none for password-less accounts,
                           e.g. dev_user of a development platform)
  --sign-in-app <id>       sign in for this application at start, so bad credentials fail the start (e.g. the
                           development application's client id); otherwise the first game signs in
  --auto-approve           approve every AUTHORIZE at once (development); otherwise each request is printed as a
                           consent_request line and answered with "approve <id>" / "deny <id>" on stdin
  --log-format <json|pretty>  its log lines on stderr (as the platform's, below)
  Its desktop UI is stdin/stdout: type help for the commands ("authorize-request <app id>", "join <message id>" …).
  A platform with a self-signed certificate (--tls) is trusted with NODE_EXTRA_CA_CERTS=<its CA file>.

The platform:

  --port <n>               TCP port (default 8787; 0 = ephemeral)
  --host <addr>            listen address (default 127.0.0.1)
  --db <file|:memory:|url> SQLite database (default ./svcpp-platform.db), or a PostgreSQL connection URL
                           (postgres://user:password@host:5432/name — platform/README.md, "Deployment");
                           also SVCPP_DB, or "database" in the config file (the flag wins, then the variable)
  --broker <url>           redis://[user:password@]host:port[/db] (rediss:// for TLS): several platform processes
                           on one PostgreSQL database serve one population (platform/README.md, "Deployment");
                           also SVCPP_BROKER, or "broker" in the config file (the flag wins, then the variable)
  --config <file>          JSON config: applications, users, guilds, and "database"/"broker" (platform/README.md)
  --tls                    serve HTTPS/WSS with a self-signed certificate (written to --cert-out), generated
                           once per database and kept in it
  --cert-out <file>        where to write the certificate with --tls (default ./svcpp-platform-ca.pem)
  --webhook-url <url>      webhook events URL of the development application
  --no-dev                 production-like: no dev routes, no auto-approve
  --allow-dev-on-network   allow development mode on a non-loopback --host (it mints tokens for any user)
  --allow-localhost-issuers  accept https://localhost OIDC issuers for identity providers
  --trust-ca <file>        extra CA (PEM) for outgoing HTTPS (identity providers, webhooks); repeatable
  --allow-outbound <cidr>  an address range (10.0.0.0/8, fd00::/8, one address) that webhooks, interactions
                           endpoints, activity proxy targets and identity providers may reach although it is not
                           public; repeatable, and replaces the default: loopback (127.0.0.0/8, ::1/128) in
                           development mode, nothing with --no-dev; "none" allows nothing. The platform's own
                           ports are never reached, whatever is allowed (platform/PROTOCOL.md §7)
  --shutdown-timeout <s>   longest graceful shutdown after SIGINT/SIGTERM before exiting anyway (default 10);
                           a second signal exits at once
  --rpc-user <user>        the local client's desktop user (default dev_user; required with --no-dev)
  --rpc-dir <dir>          socket directory (default $XDG_RUNTIME_DIR, $TMPDIR, $TMP, $TEMP, /tmp)
  --attachments-port <n>   port of the attachments origin, the listener that serves uploaded files (default 0 =
                           ephemeral; its URL starts every attachment url and is printed below)
  --voice-port <n>         voice gateway TCP port (default 0 = ephemeral; announced to clients in VOICE_SERVER_UPDATE)
  --voice-udp-port <n>     voice media UDP port (default 0 = ephemeral; announced in the voice gateway's Ready)
  --log-format <json|pretty>  pino's JSON lines, or lines for a person; default pretty on a terminal, JSON when
                           stdout is piped or redirected; also SVCPP_LOG_FORMAT (the flag wins)
  --help                   this text

With rpc, AUTHORIZE requests are approved at once in development mode and asked on this terminal with --no-dev.
`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    db: { type: 'string' },
    broker: { type: 'string' },
    config: { type: 'string' },
    tls: { type: 'boolean', default: false },
    'cert-out': { type: 'string', default: 'svcpp-platform-ca.pem' },
    'webhook-url': { type: 'string' },
    'no-dev': { type: 'boolean', default: false },
    'allow-dev-on-network': { type: 'boolean', default: false },
    'allow-localhost-issuers': { type: 'boolean', default: false },
    'trust-ca': { type: 'string', multiple: true, default: [] },
    'allow-outbound': { type: 'string', multiple: true },
    'shutdown-timeout': { type: 'string', default: '10' },
    'rpc-user': { type: 'string' },
    'rpc-dir': { type: 'string' },
    'attachments-port': { type: 'string', default: '0' },
    'voice-port': { type: 'string', default: '0' },
    'voice-udp-port': { type: 'string', default: '0' },
    platform: { type: 'string' },
    login: { type: 'string' },
    'sign-in-app': { type: 'string' },
    'auto-approve': { type: 'boolean', default: false },
    'log-format': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});
if (positionals.length > 1 || (positionals.length === 1 && positionals[0] !== 'rpc')) {
  process.stderr.write(`unknown command ${positionals.join(' ')}\n${HELP}`);
  process.exit(2);
}
const withRpc = positionals[0] === 'rpc';

if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

const standalone = values.platform !== undefined;
if (standalone && !withRpc) {
  process.stderr.write(
    `--platform starts the local client on its own: use "svcpp-platform rpc --platform <url> --login <user>"\n`,
  );
  process.exit(2);
}
if (standalone && !values.login) {
  process.stderr.write(`the standalone local client needs --login <user> (the desktop user)\n`);
  process.exit(2);
}
let platformUrl;
if (standalone) {
  let url;
  try {
    url = new URL(values.platform);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    process.stderr.write(`invalid --platform ${values.platform} (an http:// or https:// URL)\n`);
    process.exit(2);
  }
  platformUrl = url.origin;
}
if (!standalone && (values.login || values['sign-in-app'] || values['auto-approve'])) {
  process.stderr.write(`--login, --sign-in-app and --auto-approve are options of "rpc --platform <url>"\n`);
  process.exit(2);
}

const logFormat = values['log-format'] ?? (process.env.SVCPP_LOG_FORMAT || undefined);
if (logFormat !== undefined && logFormat !== 'json' && logFormat !== 'pretty') {
  process.stderr.write(`invalid --log-format ${logFormat} (json or pretty)\n`);
  process.exit(2);
}

const here = dirname(fileURLToPath(import.meta.url));
const sources = join(here, '..', 'src', 'index.ts');
let platform;
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  platform = await import(pathToFileURL(sources).href);
} else {
  platform = await import(pathToFileURL(join(here, '..', 'dist', 'index.js')).href);
}

if (standalone) {
  let rpc;
  try {
    rpc = await platform.runStandaloneCli({
      platformUrl,
      login: values.login,
      ...(process.env.SVCPP_PASSWORD ? { password: process.env.SVCPP_PASSWORD } : {}),
      ...(values['sign-in-app'] ? { signInApp: values['sign-in-app'] } : {}),
      ...(values['rpc-dir'] ? { socketDir: values['rpc-dir'] } : {}),
      autoApprove: values['auto-approve'],
      ...(logFormat ? { logFormat } : {}),
    });
  } catch (error) {
    process.stderr.write(`the local client could not start: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
  const stop = () => void rpc.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.once('SIGHUP', stop);
  // Under npx / npm exec the signal reaches npm's shell, not this process: stop when that shell is gone.
  if (platform.startedByNpm()) platform.onParentExit(stop);
} else {
  const port = Number(values.port);

  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`invalid --port ${values.port}\n`);
    process.exit(2);
  }

  const voicePorts = [values['voice-port'], values['voice-udp-port']].map(Number);
  if (voicePorts.some((p) => !Number.isInteger(p) || p < 0 || p > 65535)) {
    process.stderr.write(`invalid --voice-port or --voice-udp-port\n`);
    process.exit(2);
  }

  const attachmentsPort = Number(values['attachments-port']);
  if (!Number.isInteger(attachmentsPort) || attachmentsPort < 0 || attachmentsPort > 65535) {
    process.stderr.write(`invalid --attachments-port ${values['attachments-port']}\n`);
    process.exit(2);
  }

  const shutdownSeconds = Number(values['shutdown-timeout']);
  if (!Number.isFinite(shutdownSeconds) || shutdownSeconds <= 0) {
    process.stderr.write(`invalid --shutdown-timeout ${values['shutdown-timeout']}\n`);
    process.exit(2);
  }

  // --db and --broker: the flag, else SVCPP_DB / SVCPP_BROKER, else the config file's "database" / "broker".
  let deployment;
  try {
    deployment = platform.resolveDeployment({
      flags: { db: values.db, broker: values.broker },
      env: process.env,
      ...(values.config ? { file: JSON.parse(readFileSync(values.config, 'utf8')) } : {}),
    });
  } catch (error) {
    process.stderr.write(`svcpp-platform: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  const database = deployment.database;

  let running;
  try {
    running = await platform.startPlatform({
      port,
      host: values.host,
      database: database === ':memory:' || /^postgres(ql)?:\/\//i.test(database) ? database : resolve(database),
      tls: values.tls,
      voice: { port: voicePorts[0], udpPort: voicePorts[1] },
      attachments: { port: attachmentsPort },
      devMode: !values['no-dev'],
      ...(logFormat ? { logFormat } : {}),
      allowDevOnNetwork: values['allow-dev-on-network'],
      allowLocalhostIssuers: values['allow-localhost-issuers'],
      outboundCaPems: values['trust-ca'].map((file) => readFileSync(file, 'utf8')),
      // Not given: the mode's default (loopback receivers in development mode).
      ...(values['allow-outbound']
        ? { outboundAllow: values['allow-outbound'].filter((range) => range !== 'none') }
        : {}),
      ...(deployment.config ? { config: deployment.config } : {}),
      ...(values['webhook-url'] ? { devAppWebhookUrl: values['webhook-url'] } : {}),
      // Off unless asked for: a real desktop client may own discord-ipc-0 (games would still reach that one first).
      ...(deployment.broker ? { broker: deployment.broker } : {}),
      ...(withRpc
        ? {
            rpc: {
              autoApprove: !values['no-dev'],
              ...(values['rpc-user'] ? { user: values['rpc-user'] } : {}),
              ...(values['rpc-dir'] ? { socketDir: values['rpc-dir'] } : {}),
            },
          }
        : {}),
    });
  } catch (error) {
    // A start-up failure (bad --broker or --db, unreachable server, port in use) is one line, not a stack trace.
    process.stderr.write(`svcpp-platform: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }

  if (running.rpc && values['no-dev']) {
    // Consent for AUTHORIZE is the person at this terminal's answer, one request at a time.
    const { createInterface } = await import('node:readline/promises');
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    let queue = Promise.resolve();
    running.rpc.consent.onRequest((request) => {
      queue = queue.then(async () => {
        const answer = await prompt.question(
          `Allow "${request.applicationName}" (${request.applicationId}) the scopes ${request.scopes.join(' ')}? [y/N] `,
        );
        if (/^y(es)?$/i.test(answer.trim())) running.rpc.consent.approve(request.id);
        else running.rpc.consent.deny(request.id);
      });
    });
  }

  if (running.caCertPem) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(values['cert-out'], running.caCertPem);
  }

  /** Who signs in to the developer portal (platform/PROTOCOL.md §15). */
  function portalSignIn(options) {
    if (options.config?.developer_account) return `sign in as ${options.config.developer_account.username}`;
    return options.devMode
      ? 'user developer, password: the dev token'
      : 'no developer_account in the config: nobody can sign in';
  }

  /** Which non-public destinations webhooks and friends may reach (platform/PROTOCOL.md §7 "Outbound requests"). */
  function outboundAllowance(ranges) {
    return `${ranges.length === 0 ? 'public addresses only' : `public addresses and ${ranges.join(', ')}`} (never the platform itself)`;
  }

  // The credentials banner goes to stdout on purpose (never through the logger).
  process.stdout.write(`
svcpp platform ${running.devAppCreated ? '(new database: development application created)' : ''}
  HTTP       ${running.httpUrl}
  API base   ${running.apiBase}
  Gateway    ${running.gatewayUrl}
  Attachments ${running.attachmentsUrl}   (uploaded files: an origin of their own)
  Voice      ${running.voice.endpoint} (voice gateway, ${running.caCertPem ? 'wss' : 'ws'}), UDP ${running.voice.udpPort}
  OIDC       ${running.httpUrl}/.well-known/openid-configuration
  Portal     ${running.httpUrl}/developers   (${portalSignIn(running.context.options)})
  Outbound   ${outboundAllowance(running.context.options.outboundAllow)}
${running.caCertPem ? `  CA cert    ${resolve(values['cert-out'])}\n` : ''}
Development application
  client id      ${running.devApp.id}
  client secret  ${running.devApp.clientSecret}
  bot token      ${running.devApp.botToken}
  public key     ${running.devApp.publicKey}
  dev user       dev_user (password-less)
${running.context.options.devMode ? `  dev token      ${running.devToken}   (X-Svcpp-Dev-Token: credentials in /dev/state; new at every start)\n` : ''}${running.rpc ? `Local client\n  socket         ${running.rpc.path}\n  desktop user   ${values['rpc-user'] ?? 'dev_user'}\n` : ''}`);

  // Under npx / npm exec the signal reaches npm's shell, not this process: stop when that shell is gone.
  platform.stopOnSignals(running, { timeoutMs: shutdownSeconds * 1000, stopWithParent: platform.startedByNpm() });
}
