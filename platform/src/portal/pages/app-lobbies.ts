import type { LobbyMemberRecord, LobbyRecord } from '../../store/lobby-types.js';
import { html } from '../html.js';
import { applicationPage, type SectionView } from './application-chrome.js';

export interface LobbyListing {
  lobby: LobbyRecord;
  members: Array<{ member: LobbyMemberRecord; username: string | null; connected: boolean }>;
}

export interface LobbiesView extends SectionView {
  lobbies: LobbyListing[];
  /** The listing stops at this many lobbies (newest first). */
  limit: number;
}

const CAN_LINK_LOBBY = 1;

export function lobbiesPage(view: LobbiesView): string {
  return applicationPage(
    view,
    'lobbies',
    html`<p class="muted">The application's lobbies, newest first${view.lobbies.length === view.limit ? html` (the latest ${view.limit})` : ''}, with their members and
whether each holds a gateway session for this application.</p>
${view.lobbies.length === 0 ? html`<p>No lobbies.</p>` : ''}
${view.lobbies.map(
  ({ lobby, members }) => html`<section aria-labelledby="lobby-${lobby.id}" data-lobby="${lobby.id}">
<h2 id="lobby-${lobby.id}">Lobby <code>${lobby.id}</code></h2>
<p>Created ${new Date(lobby.createdAt).toISOString()} · ${members.length} members · ${lobby.secret ? 'joinable by secret' : 'no join secret'}
${lobby.linkedChannelId ? html` · linked to channel <code>${lobby.linkedChannelId}</code>` : ''}
${Object.keys(lobby.metadata).length > 0 ? html` · metadata: ${Object.entries(lobby.metadata).map(([key, value]) => html`<code>${key}=${value}</code> `)}` : ''}</p>
${
  members.length === 0
    ? html`<p>No members.</p>`
    : html`<table><caption class="muted">Members of lobby ${lobby.id}</caption><thead><tr><th scope="col">User</th><th scope="col">User id</th><th scope="col">Joined</th><th scope="col">Can link</th><th scope="col">Connected</th></tr></thead><tbody>
${members.map(
  ({
    member,
    username,
    connected,
  }) => html`<tr><td>${username ?? '?'}${member.additionalName ? html` <span class="muted">(${member.additionalName})</span>` : ''}</td><td><code>${member.userId}</code></td>
<td>${new Date(member.joinedAt).toISOString()}</td><td>${member.flags & CAN_LINK_LOBBY ? 'yes' : 'no'}</td><td>${connected ? 'yes' : 'no'}</td></tr>`,
)}</tbody></table>`
}
</section>`,
)}`,
  );
}
