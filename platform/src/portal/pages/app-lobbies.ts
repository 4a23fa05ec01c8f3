import type { LobbyMemberRecord, LobbyRecord } from '../../store/lobby-types.js';
import { html } from '../html.js';
import { applicationPage, type SectionView } from './application-chrome.js';
import { cells, columnHeads } from './fields.js';

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

type LobbyMember = LobbyListing['members'][number];

function memberRow({ member, username, connected }: LobbyMember) {
  const additional = member.additionalName ? html` <span class="muted">(${member.additionalName})</span>` : '';
  const joined = new Date(member.joinedAt).toISOString();
  const canLink = member.flags & CAN_LINK_LOBBY ? 'yes' : 'no';
  return html`<tr><td>${username ?? '?'}${additional}</td><td><code>${member.userId}</code></td>
${cells(joined, canLink, connected ? 'yes' : 'no')}</tr>`;
}

function lobbySection({ lobby, members }: LobbyListing) {
  const joinable = lobby.secret ? 'joinable by secret' : 'no join secret';
  const linked = lobby.linkedChannelId ? html` · linked to channel <code>${lobby.linkedChannelId}</code>` : '';
  const entries = Object.entries(lobby.metadata).map(([key, value]) => html`<code>${key}=${value}</code> `);
  const metadata = entries.length > 0 ? html` · metadata: ${entries}` : '';
  const heads = columnHeads('User', 'User id', 'Joined', 'Can link', 'Connected');
  const table =
    members.length === 0
      ? html`<p>No members.</p>`
      : html`<table><caption class="muted">Members of lobby ${lobby.id}</caption><thead><tr>${heads}</tr></thead><tbody>
${members.map(memberRow)}</tbody></table>`;
  return html`<section aria-labelledby="lobby-${lobby.id}" data-lobby="${lobby.id}">
<h2 id="lobby-${lobby.id}">Lobby <code>${lobby.id}</code></h2>
<p>Created ${new Date(lobby.createdAt).toISOString()} · ${members.length} members · ${joinable}
${linked}
${metadata}</p>
${table}
</section>`;
}

export function lobbiesPage(view: LobbiesView): string {
  const latest = view.lobbies.length === view.limit ? html` (the latest ${view.limit})` : '';
  return applicationPage(
    view,
    'lobbies',
    html`<p class="muted">The application's lobbies, newest first${latest}, with their members and
whether each holds a gateway session for this application.</p>
${view.lobbies.length === 0 ? html`<p>No lobbies.</p>` : ''}
${view.lobbies.map(lobbySection)}`,
  );
}
