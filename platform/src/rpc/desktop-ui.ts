/**
 * What games asked the desktop user's client to show (PROTOCOL.md §12.7): the local client has no window, so it
 * records each request in order — a test (or a desktop front end) reads `actions` — and keeps whether each
 * application currently shows chat itself (`showingChat`), which is when a desktop client holds back its own
 * notifications of the same messages.
 */
import type { RpcConnection } from './connection.js';

export type DesktopAction =
  | { kind: 'open-message'; applicationId: string; messageId: string; channelId: string | null }
  | { kind: 'open-connected-games-settings'; applicationId: string }
  /** SHARE_LINK (§18.5): what the activity shares; `custom_id` rides on the link. */
  | { kind: 'share-link'; applicationId: string; message: string; customId: string | null; linkId: string | null };

export class DesktopUi {
  readonly actions: DesktopAction[] = [];
  private readonly chatShownBy = new Set<RpcConnection>();

  record(action: DesktopAction): void {
    this.actions.push(action);
  }

  setShowingChat(connection: RpcConnection, showing: boolean): void {
    if (showing) this.chatShownBy.add(connection);
    else this.chatShownBy.delete(connection);
  }

  /** A connection went away: what it showed goes with it. */
  forget(connection: RpcConnection): void {
    this.chatShownBy.delete(connection);
  }

  /** The applications with a connected game that says it shows chat, sorted. */
  showingChatApplications(): string[] {
    return [
      ...new Set([...this.chatShownBy].flatMap((connection) => (connection.app ? [connection.app.id] : []))),
    ].sort();
  }

  /** Whether a connected game of the application says it shows chat. */
  showingChat(applicationId: string): boolean {
    return [...this.chatShownBy].some((connection) => connection.app?.id === applicationId);
  }
}
