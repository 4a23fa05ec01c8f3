/**
 * Voice calls with several nodes (PROTOCOL.md "Several nodes"): each node runs its own voice gateway and UDP relay,
 * so a call lives on the node whose main gateway took the participants' op 4 — but the other nodes must be able to
 * end it for the lobby's members when that node dies. Every node therefore records, on the log's `voice` channel,
 * who joined and left a call through it (the state without its voice token), and every node keeps that table.
 *
 * When a node is declared down (events/node-liveness.ts), its calls are over: their participants' voice connections
 * died with it, without a close frame. The node that appended the `down` entry publishes, for each of the dead node's
 * participants, the same VOICE_STATE_UPDATE as a leave (`channel_id: null`) to the call's audience — every lobby
 * member's sessions (the participant's own, now on another node, included), or the guild's — so clients see the call
 * end as if each participant had left. Guild voice channels' start time is per node and is not cleared.
 *
 * Without a broker nothing is recorded: one node has the table already (voice-states.ts).
 */
import { NODES_CHANNEL, type ClusterLog, type NodeDownEntry } from '../events/cluster-log.js';
import type { VoiceState, VoiceStatesObserver } from './voice-states.js';

const CHANNEL = 'voice';

/** A voice state as the log carries it: no token (a credential of the node that issued it). */
type SharedVoiceState = Omit<VoiceState, 'token'>;

type VoiceEntry =
  { op: 'in'; node: string; state: SharedVoiceState } | { op: 'out'; node: string; lobbyId: string; userId: string };

export class ClusterVoice implements VoiceStatesObserver {
  /** Participants per node: `${lobbyId}:${userId}` → state. */
  private readonly byNode = new Map<string, Map<string, SharedVoiceState>>();

  constructor(
    private readonly log: ClusterLog,
    /**
     * Publishes the leave of a dead node's participant (VOICE_STATE_UPDATE, channel_id null) to the call's audience.
     */
    private readonly announceLeft: (state: VoiceState) => void,
  ) {
    if (!log.distributed) return;
    log.on<VoiceEntry>(CHANNEL, (entry) => this.apply(entry), { history: true });
    log.on<NodeDownEntry>(NODES_CHANNEL, (entry, origin) => this.nodeDown(entry.node, origin), { history: true });
  }

  put(state: VoiceState): void {
    if (!this.log.distributed) return;
    const { token: _token, ...shared } = state;
    this.log.append(CHANNEL, { op: 'in', node: this.log.nodeId, state: shared } satisfies VoiceEntry);
  }

  removed(state: VoiceState): void {
    if (!this.log.distributed) return;
    this.log.append(CHANNEL, {
      op: 'out',
      node: this.log.nodeId,
      lobbyId: state.lobbyId,
      userId: state.userId,
    } satisfies VoiceEntry);
  }

  /** The participants a node holds as every node knows them (tests, diagnostics). */
  participantsOf(node: string): SharedVoiceState[] {
    return [...(this.byNode.get(node)?.values() ?? [])];
  }

  private apply(entry: VoiceEntry): void {
    let table = this.byNode.get(entry.node);
    if (entry.op === 'in') {
      if (!table) this.byNode.set(entry.node, (table = new Map()));
      table.set(`${entry.state.lobbyId}:${entry.state.userId}`, entry.state);
      return;
    }
    table?.delete(`${entry.lobbyId}:${entry.userId}`);
    if (table?.size === 0) this.byNode.delete(entry.node);
  }

  private nodeDown(dead: string, origin: boolean): void {
    const table = this.byNode.get(dead);
    this.byNode.delete(dead);
    if (!table || !origin) return;
    for (const state of table.values()) this.announceLeft({ ...state, token: '' });
  }
}
