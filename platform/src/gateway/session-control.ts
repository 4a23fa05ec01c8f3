/**
 * What the platform needs from the gateway: whether a user is connected, and ending sessions (ban, revoke, unmerge).
 * Areas take this rather than the gateway: it exists before the gateway does (then nobody is connected).
 */
export interface SessionControl {
  disconnectUser(userId: string, closeCode?: number): void;
  /** The one presence query: the user holds a gateway session (attached or resumable) for the application. */
  hasSession(userId: string, applicationId: string): boolean;
}
