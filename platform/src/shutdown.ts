import type { Logger } from 'pino';
import { ignoreBrokenPipe } from './logger.js';
import { onParentExit } from './parent-watch.js';

export interface SignalShutdownOptions {
  /** A graceful shutdown still running after this long ends the process with exit code 1. */
  timeoutMs: number;
  /**
   * Also stop (as on SIGTERM) when the process that started this one exits: set when npm started the platform,
   * whose shell in between does not forward signals (see parent-watch.ts).
   */
  stopWithParent?: boolean;
}

/** SIGHUP too: closing the terminal of `npx svcpp-platform` ends the platform gracefully, not abruptly. */
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
type StopSignal = keyof typeof SIGNAL_NUMBERS;

/**
 * SIGINT/SIGTERM/SIGHUP stop a platform process (the CLI's): the first signal closes the platform gracefully and exits
 * with 0 (1 when closing fails or has not finished after `timeoutMs`); a second signal exits at once with
 * 128 + its number. Nothing on this path waits for stdout or stderr: a launcher or test runner that is itself
 * stopping may already have closed them, and their write errors are ignored.
 */
export function stopOnSignals(
  platform: { close(): Promise<void>; logger: Logger },
  options: SignalShutdownOptions,
): void {
  ignoreBrokenPipe(process.stdout);
  ignoreBrokenPipe(process.stderr);
  const report = (message: string) => process.stderr.write(`svcpp-platform: ${message}\n`);
  let stopping = false;

  const onSignal = (signal: StopSignal) => {
    if (stopping) {
      report(`${signal} again: second signal, exiting without finishing the shutdown`);
      process.exit(128 + SIGNAL_NUMBERS[signal]);
    }
    stopping = true;
    platform.logger.info({ signal }, 'shutting down');
    // Unref'd: the bound must not itself keep a finished process alive.
    setTimeout(() => {
      report(`shutdown did not finish within ${options.timeoutMs / 1000} s; exiting`);
      process.exit(1);
    }, options.timeoutMs).unref();
    platform.close().then(
      () => process.exit(0),
      (error: unknown) => {
        report(`shutdown failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        process.exit(1);
      },
    );
  };
  for (const signal of Object.keys(SIGNAL_NUMBERS) as StopSignal[]) process.on(signal, () => onSignal(signal));
  if (options.stopWithParent) {
    onParentExit((parentPid) => {
      if (stopping) return;
      platform.logger.info({ parentPid }, 'the process that started the platform has exited');
      onSignal('SIGTERM');
    });
  }
}
