/**
 * A DAVE participant for the platform's tests: the test voice client (real WebSocket, real UDP) driving an
 * independent MLS/DAVE implementation, `@snazzah/davey` (OpenMLS), the way a published client does: op 26 after
 * Session Description, op 25 → external sender, op 27 → commit (op 28), op 29/30 → apply and answer op 23 (op 31
 * and a new key package when that fails), op 24 epoch 1 → reset. Received media is DAVE-decrypted per sender; a
 * frame that cannot be decrypted yet (its sender already moved to an epoch whose commit this peer has not
 * processed) waits and is retried after the next commit or welcome, as a jitter buffer would hold it.
 */
import davey from '@snazzah/davey';
import { open } from './voice-crypto.js';
import type { TestVoiceClient, VoiceMessage } from './voice-client.js';

const { DAVESession } = davey;
type Session = InstanceType<typeof DAVESession>;

export class DavePeer {
  readonly session: Session;
  /** Decrypted frames by sender user id, in arrival order. */
  readonly decrypted = new Map<string, Buffer[]>();
  /** Ciphertext frames not decryptable yet (sender, payload). */
  private waiting: { userId: string; payload: Buffer }[] = [];
  readonly ops: number[] = [];
  /** Every op 28 payload sent (commit + optional welcome). */
  readonly commits: Buffer[] = [];
  invalidSent = 0;
  /** Whether op 23 answers transitions (false: a member that never confirms, for the timeout). */
  confirmsTransitions = true;
  private stopped = false;

  constructor(
    readonly client: TestVoiceClient,
    readonly lobbyId: string,
    /** SSRC → user id of every peer of the test (the tests share one directory). */
    private readonly directory: Map<number, string>,
  ) {
    this.session = new DAVESession(1, client.credentials.userId, lobbyId);
    directory.set(client.ssrc, client.credentials.userId);
    this.sendKeyPackage();
    void this.pumpSocket();
    void this.pumpMedia();
  }

  get userId(): string {
    return this.client.credentials.userId;
  }

  /** Sends one Opus frame, DAVE-encrypted once the session has a group. */
  sendOpus(frame: Buffer): Buffer {
    const out = this.session.ready ? this.session.encryptOpus(frame) : frame;
    this.client.sendFrame(out);
    return out;
  }

  async close(): Promise<void> {
    this.stopped = true;
    await this.client.close();
  }

  /** Op 31 (the commit or welcome of `transitionId` could not be processed), a local reset and a new key package. */
  invalidate(transitionId: number): void {
    this.invalidSent++;
    this.client.socket.send(31, { transition_id: transitionId });
    this.session.reinit(1, this.userId, this.lobbyId);
    this.sendKeyPackage();
  }

  private sendKeyPackage(): void {
    this.client.socket.sendRaw(Buffer.concat([Buffer.from([26]), this.session.getSerializedKeyPackage()]));
  }

  private async pumpSocket(): Promise<void> {
    for (;;) {
      let message: VoiceMessage;
      try {
        message = await this.client.socket.inbox.next('a DAVE message', 600_000);
      } catch {
        return;
      }
      this.ops.push(message.op);
      try {
        this.handle(message);
      } catch (error) {
        if (!this.stopped) throw error;
      }
    }
  }

  private handle({ op, d }: VoiceMessage): void {
    const socket = this.client.socket;
    if (op === 25) this.session.setExternalSender(d as Buffer);
    else if (op === 27) {
      const payload = d as Buffer;
      const { commit, welcome } = this.session.processProposals(payload[0]!, payload.subarray(1));
      if (commit) {
        const body = Buffer.concat([commit, ...(welcome ? [welcome] : [])]);
        this.commits.push(body);
        socket.sendRaw(Buffer.concat([Buffer.from([28]), body]));
      }
    } else if (op === 29 || op === 30) {
      const payload = d as Buffer;
      const transitionId = payload.readUInt16BE(0);
      try {
        if (op === 29) this.session.processCommit(payload.subarray(2));
        else this.session.processWelcome(payload.subarray(2));
      } catch {
        this.invalidate(transitionId);
        return;
      }
      if (transitionId !== 0 && this.confirmsTransitions) socket.send(23, { transition_id: transitionId });
      this.retry();
    } else if (op === 21) {
      if (d.transition_id !== 0) socket.send(23, { transition_id: d.transition_id });
    } else if (op === 24 && d.epoch === 1) {
      this.session.reinit(1, this.userId, this.lobbyId);
      this.sendKeyPackage();
    }
  }

  private async pumpMedia(): Promise<void> {
    for (;;) {
      let packet: Buffer;
      try {
        packet = await this.client.media.packets.next('media', 600_000);
      } catch {
        return;
      }
      const rtp = open(this.client.mode, this.client.key, packet);
      const userId = this.directory.get(rtp.ssrc);
      if (!userId) continue;
      this.waiting.push({ userId, payload: rtp.payload });
      this.retry();
    }
  }

  private retry(): void {
    const still: typeof this.waiting = [];
    for (const frame of this.waiting) {
      try {
        const plain = this.session.decrypt(frame.userId, 0, frame.payload);
        const list = this.decrypted.get(frame.userId) ?? [];
        list.push(plain);
        this.decrypted.set(frame.userId, list);
      } catch {
        still.push(frame);
      }
    }
    this.waiting = still;
  }

  /** Frames still not decryptable. */
  get undecrypted(): number {
    return this.waiting.length;
  }
}
