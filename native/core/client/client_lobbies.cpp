// Client: lobbies and linked channels (platform/PROTOCOL.md §10.5, native/SEMANTICS.md "Social layer: lobbies, lobby
// chat, direct messages"). The lobby cache is fed by READY and the LOBBY_* dispatches (lobbies/lobby_dispatch); the
// calls are REST requests whose answers also go into the cache, so a handle read inside the completion callback already
// sees the result.
#include <nlohmann/json.hpp>

#include "client/client_net.hpp"
#include "auth/requests.hpp"
#include "lobbies/lobby_dispatch.hpp"
#include "messages/validation.hpp"
#include "net/json_fields.hpp"
#include "net/results.hpp"

namespace svcpp::core {

namespace {

using LobbyIdOperation = Operation<void(const ClientResult &, uint64_t)>;
using ResultOperation = Operation<void(const ClientResult &)>;
using InviteOperation = Operation<void(const ClientResult &, std::string_view)>;

/** The platform's "merge your provisional account first" error (PROTOCOL.md §10.5). */
constexpr int32_t kProvisionalMergeRequired = 530020;

std::string LobbyPath(uint64_t lobbyId) { return "/lobbies/" + std::to_string(lobbyId); }

/**
 * Completes a create-or-join with the answer of PUT /lobbies. The lobby is cached first (the LOBBY_CREATE dispatch
 * that follows reports it), so GetLobbyHandle works inside the callback.
 */
net::HttpDone LobbyAnswer(std::shared_ptr<LobbyCache> cache, std::shared_ptr<LobbyIdOperation> op) {
    return [cache = std::move(cache), op = std::move(op)](net::HttpResponse response) {
        LobbyRecord lobby;
        ClientResult result = net::ReadJson(response, lobby, lobbies::ParseLobby);
        if (result.type != ErrorType::None) return op->Fail(std::move(result));
        const uint64_t id = lobby.id;
        if (id) cache->Put(std::move(lobby));
        op->Complete(std::move(result), id);
    };
}

}  // namespace

void Client::ClearSocialCaches() {
    lobbies_.Clear();
    messages_.Cache()->Clear();
}

// ---- Create, join, leave --------------------------------------------------------------------------------

void Client::CreateOrJoinLobby(std::string secret, ClientCreateOrJoinLobbyCallback &&cb) {
    auto op = LobbyIdOperation::Begin(operations_, std::move(cb));
    if (auto error = validation::CheckSecret(secret))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = NotReady()) return op->Fail(*failure);
    // No metadata keys: the lobby's and the member's metadata stay as they are.
    nlohmann::json body = {{"secret", std::move(secret)}};
    Rest(auth::BearerJsonRequest("PUT", apiBase_ + "/lobbies", "PUT /lobbies", CurrentToken(), body),
         LobbyAnswer(lobbies_.Cache(), op));
}

void Client::CreateOrJoinLobbyWithMetadata(std::string secret, Properties lobbyMetadata, Properties memberMetadata,
                                           ClientCreateOrJoinLobbyCallback &&cb) {
    auto op = LobbyIdOperation::Begin(operations_, std::move(cb));
    if (auto error = validation::CheckSecret(secret))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto error = validation::CheckMetadata(lobbyMetadata, "lobby metadata"))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto error = validation::CheckMetadata(memberMetadata, "member metadata"))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = NotReady()) return op->Fail(*failure);
    nlohmann::json body = {{"secret", std::move(secret)},
                           {"lobby_metadata", wire::MapJson(lobbyMetadata)},
                           {"member_metadata", wire::MapJson(memberMetadata)}};
    Rest(auth::BearerJsonRequest("PUT", apiBase_ + "/lobbies", "PUT /lobbies", CurrentToken(), body),
         LobbyAnswer(lobbies_.Cache(), op));
}

void Client::LeaveLobby(uint64_t lobbyId, ClientLeaveLobbyCallback &&cb) {
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    if (!lobbyId) return op->Fail(FailureResult(ErrorType::ValidationError, "lobbyId is 0"));
    if (auto failure = NotReady()) return op->Fail(*failure);
    Rest(auth::BearerRequest("DELETE", apiBase_ + LobbyPath(lobbyId) + "/members/@me",
                             "DELETE /lobbies/:id/members/@me", CurrentToken()),
         [this, op, lobbyId](net::HttpResponse response) {
             ClientResult result = net::ResultFromHttp(response);
             // Forget it now and report it once (the LOBBY_DELETE that follows finds nothing left to remove).
             if (result.type == ErrorType::None && lobbies_.Cache()->Remove(lobbyId)) lobbies_.Deleted().Post(lobbyId);
             op->Complete(std::move(result));
         });
}

std::optional<LobbyHandle> Client::GetLobbyHandle(uint64_t lobbyId) const {
    if (!lobbies_.Cache()->Contains(lobbyId)) return std::nullopt;
    return LobbyHandle(lobbies_.Cache(), users_.Cache(), LobbyCalls(), lobbyId);
}

// ---- Linked channels ------------------------------------------------------------------------------------

namespace {

/** PATCH /lobbies/{id}/channel-linking: channelId 0 unlinks. */
net::HttpRequest LinkingRequest(const std::string &apiBase, const std::string &token, uint64_t lobbyId,
                                uint64_t channelId) {
    nlohmann::json body = {
        {"channel_id", channelId ? nlohmann::json(std::to_string(channelId)) : nlohmann::json(nullptr)}};
    return auth::BearerJsonRequest("PATCH", apiBase + LobbyPath(lobbyId) + "/channel-linking",
                                   "PATCH /lobbies/:id/channel-linking", token, body);
}

}  // namespace

void Client::LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId, ClientLinkOrUnlinkChannelCallback &&cb) {
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    if (!lobbyId || !channelId)
        return op->Fail(FailureResult(ErrorType::ValidationError, "lobbyId and channelId must not be 0"));
    if (auto failure = NotReady()) return op->Fail(*failure);
    Rest(LinkingRequest(apiBase_, CurrentToken(), lobbyId, channelId), [this, op](net::HttpResponse response) {
        LobbyRecord lobby;
        ClientResult result = net::ReadJson(response, lobby, lobbies::ParseLobby);
        // The answer is the linked lobby: cache it (LOBBY_UPDATE reports the change) so the handle shows the link.
        if (result.type == ErrorType::None && lobby.id) lobbies_.Cache()->Put(std::move(lobby));
        op->Complete(std::move(result));
    });
}

void Client::UnlinkChannelFromLobby(uint64_t lobbyId, ClientLinkOrUnlinkChannelCallback &&cb) {
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    if (!lobbyId) return op->Fail(FailureResult(ErrorType::ValidationError, "lobbyId is 0"));
    if (auto failure = NotReady()) return op->Fail(*failure);
    Rest(LinkingRequest(apiBase_, CurrentToken(), lobbyId, 0), [this, op](net::HttpResponse response) {
        LobbyRecord lobby;
        ClientResult result = net::ReadJson(response, lobby, lobbies::ParseLobby);
        if (result.type == ErrorType::None && lobby.id) lobbies_.Cache()->Put(std::move(lobby));
        op->Complete(std::move(result));
    });
}

void Client::JoinLinkedLobbyGuild(uint64_t lobbyId, ClientProvisionalUserMergeRequiredCallback &&mergeCb,
                                  ClientJoinLinkedLobbyGuildCallback &&cb) {
    // The merge callback rides on an operation of its own so its user data is released on a host thread like
    // every other callback's: it fires (before cb) only when the platform says a merge is required.
    ResultOperation::Cb merge{[fn = std::move(mergeCb.fn)](const ClientResult &r) {
                                  if (r.type == ErrorType::None && fn) fn();
                              },
                              std::move(mergeCb.owner)};
    auto mergeOp = ResultOperation::Begin(operations_, std::move(merge));
    auto op = InviteOperation::Begin(operations_, std::move(cb));
    auto fail = [&](ClientResult result) {
        mergeOp->Fail(FailureResult(ErrorType::Aborted, "no merge needed"));
        op->Fail(std::move(result));
    };
    if (!lobbyId) return fail(FailureResult(ErrorType::ValidationError, "lobbyId is 0"));
    if (auto failure = NotReady()) return fail(*failure);
    Rest(auth::BearerJsonRequest("POST", apiBase_ + LobbyPath(lobbyId) + "/members/@me/invites",
                                 "POST /lobbies/:id/members/@me/invites", CurrentToken(), nlohmann::json::object()),
         [mergeOp, op](net::HttpResponse response) {
             std::string url;
             ClientResult result =
                 net::ReadJson(response, url, [](const nlohmann::json &body) { return wire::String(body, "url"); });
             if (result.type == ErrorType::HTTPError && result.errorCode == kProvisionalMergeRequired)
                 mergeOp->Complete(ClientResult{});
             else
                 mergeOp->Fail(FailureResult(ErrorType::Aborted, "no merge needed"));
             if (result.type == ErrorType::None && url.empty())
                 result = FailureResult(ErrorType::NetworkError, "the invite answer has no url");
             op->Complete(std::move(result), std::move(url));
         });
}

}  // namespace svcpp::core
