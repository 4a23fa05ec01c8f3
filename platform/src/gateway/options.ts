/** Tunables of the gateway. Defaults are those of PROTOCOL.md §20; tests shrink the timers. */
export interface GatewayOptions {
  /** Sent in Hello; clients heartbeat this often. */
  heartbeatIntervalMs: number;
  /** Extra time after a missed heartbeat before the connection is dropped (see PROTOCOL.md §20.5). */
  heartbeatGraceMs: number;
  /** How long a dropped session stays resumable. */
  resumeWindowMs: number;
  /** Largest client payload in bytes; bigger ones close with 4002. */
  maxPayloadBytes: number;
  /** Client payloads per connection per window; exceeding closes with 4008. */
  sendLimit: { count: number; windowMs: number };
  /** Presence updates per connection per window; excess ones get a RATE_LIMITED dispatch and are dropped. */
  presenceLimit: { count: number; windowMs: number };
  /** Dispatches kept per session for resume; a detached session that misses more is no longer resumable. */
  replayBufferSize: number;
  /** Reported by GET /gateway/bot as session_start_limit.total (per application per 24 h; reported, not enforced). */
  sessionStartLimit: number;
}

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  heartbeatIntervalMs: 45_000,
  heartbeatGraceMs: 15_000,
  resumeWindowMs: 180_000,
  maxPayloadBytes: 4096,
  sendLimit: { count: 120, windowMs: 60_000 },
  presenceLimit: { count: 5, windowMs: 20_000 },
  replayBufferSize: 1000,
  sessionStartLimit: 1000,
};

export function resolveOptions(partial: Partial<GatewayOptions> | undefined): GatewayOptions {
  const o = { ...DEFAULT_GATEWAY_OPTIONS, ...partial };
  for (const [key, value] of Object.entries({
    heartbeatIntervalMs: o.heartbeatIntervalMs,
    heartbeatGraceMs: o.heartbeatGraceMs,
    resumeWindowMs: o.resumeWindowMs,
    maxPayloadBytes: o.maxPayloadBytes,
    replayBufferSize: o.replayBufferSize,
    sendLimit: o.sendLimit.count,
    sendLimitWindow: o.sendLimit.windowMs,
    presenceLimit: o.presenceLimit.count,
    presenceLimitWindow: o.presenceLimit.windowMs,
  })) {
    if (!Number.isInteger(value) || value <= 0)
      throw new RangeError(`gateway option ${key} must be a positive integer`);
  }
  return o;
}
