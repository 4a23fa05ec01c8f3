/**
 * Which (user, application) pairs hold at least one gateway session, fed by the gateway's sessionsChanged hook.
 * A lobby member is `connected` when its user is present for the lobby's application. In memory only: after a
 * restart nobody has a session, which is exactly what an empty set says.
 */
export class LobbyPresence {
  private readonly present = new Set<string>();

  has(userId: string, applicationId: string): boolean {
    return this.present.has(`${userId}:${applicationId}`);
  }

  set(userId: string, applicationId: string, present: boolean): void {
    const key = `${userId}:${applicationId}`;
    if (present) this.present.add(key);
    else this.present.delete(key);
  }
}
