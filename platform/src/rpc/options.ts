/** Options of the platform's local RPC server (`startPlatform({ rpc })`, `--rpc-*`), beside their area. */
export interface RpcOptions {
  /** The desktop user (username or id). Default in development mode: `dev_user`; required otherwise. */
  user?: string;
  /** Directory of the `discord-ipc-{n}` socket; default `XDG_RUNTIME_DIR`, `TMPDIR`, `TMP`, `TEMP`, `/tmp`. */
  socketDir?: string;
  /** Approve every AUTHORIZE without asking (development mode only). Default false. */
  autoApprove?: boolean;
  /** Where `.desktop` launch entries go (Linux); default `$XDG_DATA_HOME/applications`; null = write none. */
  applicationsDir?: string | null;
}
