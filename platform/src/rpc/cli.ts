/**
 * `svcpp-platform rpc --platform <url>`: the standalone local client's process (PROTOCOL.md §12.8). It has no
 * window; its desktop UI is a line protocol — commands read from stdin, one JSON object per line on stdout for
 * every answer and event — so a person at a terminal or a test driving the process can act as the desktop user.
 * Logs go to stderr.
 */
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { defaultLogFormat, prettyStream, type LogFormat } from '../log-format.js';
import type { ConsentRequest } from './consent.js';
import type { RpcServer } from './server.js';
import { startStandaloneRpc } from './standalone.js';

export interface StandaloneCliOptions {
  platformUrl: string;
  login: string;
  /** From the environment (SVCPP_PASSWORD), never the command line. */
  password?: string;
  signInApp?: string;
  socketDir?: string;
  applicationsDir?: string;
  autoApprove: boolean;
  /** Its stderr log lines: default pretty on a terminal, else JSON (log-format.ts). */
  logFormat?: LogFormat;
}

export const STANDALONE_COMMANDS = `Commands (stdin, one per line; answers and events are JSON lines on stdout):
  authorize-request <application id>   the desktop user starts linking with a game (AUTHORIZE_REQUEST)
  join <message id> [<application id>] the desktop user presses "Join" on a game invite (ACTIVITY_JOIN)
  approve <request id> | deny <request id>   answer an AUTHORIZE consent request
  pending                              the consent requests waiting for an answer
  desktop                              what games asked the desktop client to show
  help                                 this text
`;

const write = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

export async function runStandaloneCli(options: StandaloneCliOptions): Promise<RpcServer> {
  // Its logs go to stderr (stdout is the desktop UI's protocol): pretty on a terminal, JSON otherwise or as asked.
  const format = options.logFormat ?? defaultLogFormat(process.stderr);
  const logger = pino(
    { name: 'svcpp-local-client', level: process.env.SVCPP_LOG_LEVEL ?? 'info' },
    format === 'pretty' ? prettyStream(process.stderr) : pino.destination(2),
  );
  const rpc = await startStandaloneRpc({
    platformUrl: options.platformUrl,
    credentials: { username: options.login, ...(options.password !== undefined && { password: options.password }) },
    ...(options.signInApp !== undefined && { signInApplication: options.signInApp }),
    ...(options.socketDir !== undefined && { socketDir: options.socketDir }),
    ...(options.applicationsDir !== undefined && { applicationsDir: options.applicationsDir }),
    autoApprove: options.autoApprove,
    logger,
  });
  rpc.consent.onRequest((request: ConsentRequest) =>
    write({
      event: 'consent_request',
      id: request.id,
      application_id: request.applicationId,
      application_name: request.applicationName,
      scopes: request.scopes,
    }),
  );
  write({ event: 'listening', path: rpc.path, platform: options.platformUrl, user: options.login });

  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on('line', (line) => {
    const [command, ...args] = line.trim().split(/\s+/);
    if (!command) return;
    void run(rpc, command, args).then(
      (answer) => write({ command, ...answer }),
      (error: unknown) => write({ command, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  return rpc;
}

async function run(rpc: RpcServer, command: string, args: string[]): Promise<Record<string, unknown>> {
  const [first, second] = args;
  switch (command) {
    case 'authorize-request':
      if (!first) throw new Error('usage: authorize-request <application id>');
      return { delivered: rpc.requestAuthorize(first) };
    case 'join': {
      if (!first) throw new Error('usage: join <message id> [<application id>]');
      const { applicationId, delivery } = await rpc.acceptInvite(first, second);
      // The secret is the game's: it reaches the game over the local client, never this output.
      return { application_id: applicationId, delivery };
    }
    case 'approve':
    case 'deny': {
      const id = Number(first);
      const done = command === 'approve' ? rpc.consent.approve(id) : rpc.consent.deny(id);
      if (!done) throw new Error(`no pending consent request ${first ?? '(none)'}`);
      return { id };
    }
    case 'pending':
      return { pending: rpc.consent.pending() };
    case 'desktop':
      return { actions: rpc.desktop.actions, showing_chat: rpc.desktop.showingChatApplications() };
    case 'help':
      return { help: STANDALONE_COMMANDS };
    default:
      throw new Error(`unknown command ${command} (try help)`);
  }
}
