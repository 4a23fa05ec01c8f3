import type { RelayStats } from './udp-relay.js';
import type { VoiceDropFilter } from './voice-gateway.js';

/**
 * What the rest of the platform (dev routes, tests, the CLI) sees of the voice area: addresses, stats, fault injection.
 */
export interface VoiceStats extends RelayStats {
  lossRate: number;
  calls: Record<string, string[]>;
  /** Resumes the voice gateway accepted, and the buffered messages they re-sent in all. */
  resumes: number;
  resumeReplayed: number;
  /** Resumes refused with 4006 (the client must Identify again). */
  resumesRefused: number;
}

export interface VoiceHandle {
  /** `host:port` of the voice gateway (VOICE_SERVER_UPDATE `endpoint`); empty before listen. */
  readonly endpoint: string;
  /** UDP port of the relay; 0 before listen. */
  readonly udpPort: number;
  /**
   * Drops matching voice WebSockets without a close frame; returns how many. The clients can resume (not with
   * `forget`).
   */
  dropConnections(filter: VoiceDropFilter): number;
  setLoss(rate: number, seed?: number): void;
  stats(): VoiceStats;
  /** The call's DAVE group as the platform tracks it (epoch; user id per leaf), or null (no DAVE call). */
  dave(lobbyId: string): { epoch: bigint; leaves: (string | null)[] } | null;
}
