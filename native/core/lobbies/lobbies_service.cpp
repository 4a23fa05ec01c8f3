#include "lobbies/lobbies_service.hpp"

#include <nlohmann/json.hpp>

#include "lobbies/lobbies_routes.hpp"
#include "messages/validation.hpp"
#include "net/json_fields.hpp"
#include "net/results.hpp"
#include "runtime/merge_required.hpp"

namespace svcpp::core::lobbies {

void LobbiesService::Register(DispatchTable &table) {
    table.On("READY", [this](std::string_view, const nlohmann::json &data) {
        Post(ApplyReady(*cache_, *users_, wire::Member(data, "lobbies")));
    });
    for (const char *type : {"LOBBY_CREATE", "LOBBY_UPDATE", "LOBBY_DELETE", "LOBBY_MEMBER_ADD", "LOBBY_MEMBER_UPDATE",
                             "LOBBY_MEMBER_REMOVE"}) {
        table.On(type, [this](std::string_view t, const nlohmann::json &data) {
            Post(ApplyDispatch(*cache_, *users_, users_->CurrentUserId(), t, data));
        });
    }
}

void LobbiesService::Post(const std::vector<LobbyEvent> &events) {
    using Kind = LobbyEvent::Kind;
    for (const auto &e : events) {
        switch (e.kind) {
            case Kind::Created: created_.Post(e.lobbyId); break;
            case Kind::Deleted: deleted_.Post(e.lobbyId); break;
            case Kind::Updated: updated_.Post(e.lobbyId); break;
            case Kind::MemberAdded: memberAdded_.Post(e.lobbyId, e.memberId); break;
            case Kind::MemberRemoved: memberRemoved_.Post(e.lobbyId, e.memberId); break;
            case Kind::MemberUpdated: memberUpdated_.Post(e.lobbyId, e.memberId); break;
        }
    }
}

void LobbiesService::Clear() {
    for (uint64_t id : cache_->Clear()) deleted_.Post(id);
}

void LobbiesService::ReleaseRegistrations() {
    created_.Set({});
    deleted_.Set({});
    updated_.Set({});
    memberAdded_.Set({});
    memberRemoved_.Set({});
    memberUpdated_.Set({});
}

// ---- Operations (platform/PROTOCOL.md §10.5, native/SEMANTICS.md "Social layer: lobbies, lobby chat, …") ------

namespace {

using LobbyIdOperation = Operation<void(const ClientResult &, uint64_t)>;
using ResultOperation = Operation<void(const ClientResult &)>;
using InviteOperation = Operation<void(const ClientResult &, std::string_view)>;

/** The platform's "merge your provisional account first" error (PROTOCOL.md §10.5). */
constexpr int32_t kProvisionalMergeRequired = 530020;

/**
 * Completes a create-or-join with the answer of PUT /lobbies. The lobby is cached first (the LOBBY_CREATE dispatch
 * that follows reports it), so GetLobbyHandle works inside the callback.
 */
net::HttpDone LobbyAnswer(std::shared_ptr<LobbyCache> cache, std::shared_ptr<LobbyIdOperation> op) {
    return [cache = std::move(cache), op = std::move(op)](net::HttpResponse response) {
        LobbyRecord lobby;
        ClientResult result = net::ReadJson(response, lobby, ParseLobby);
        if (result.type != ErrorType::None) return op->Fail(std::move(result));
        const uint64_t id = lobby.id;
        if (id) cache->Put(std::move(lobby));
        op->Complete(std::move(result), id);
    };
}

}  // namespace

void LobbiesService::CreateOrJoinLobby(std::string secret, ClientCreateOrJoinLobbyCallback &&cb) {
    auto op = LobbyIdOperation::Begin(host_.Ops(), std::move(cb));
    if (auto error = validation::CheckSecret(secret))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    // No metadata keys: the lobby's and the member's metadata stay as they are.
    host_.Rest(host_.JsonRequest(routes::kCreateOrJoin, {}, {{"secret", std::move(secret)}}), LobbyAnswer(cache_, op));
}

void LobbiesService::CreateOrJoinLobbyWithMetadata(std::string secret, Properties lobbyMetadata,
                                                   Properties memberMetadata, ClientCreateOrJoinLobbyCallback &&cb) {
    auto op = LobbyIdOperation::Begin(host_.Ops(), std::move(cb));
    if (auto error = validation::CheckSecret(secret))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto error = validation::CheckMetadata(lobbyMetadata, "lobby metadata"))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto error = validation::CheckMetadata(memberMetadata, "member metadata"))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    nlohmann::json body = {{"secret", std::move(secret)},
                           {"lobby_metadata", wire::MapJson(lobbyMetadata)},
                           {"member_metadata", wire::MapJson(memberMetadata)}};
    host_.Rest(host_.JsonRequest(routes::kCreateOrJoin, {}, body), LobbyAnswer(cache_, op));
}

void LobbiesService::LeaveLobby(uint64_t lobbyId, ClientLeaveLobbyCallback &&cb) {
    auto op = ResultOperation::Begin(host_.Ops(), std::move(cb));
    if (!lobbyId) return op->Fail(FailureResult(ErrorType::ValidationError, "lobbyId is 0"));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    host_.Rest(host_.Request(routes::kLeave, {lobbyId}), [this, op, lobbyId](net::HttpResponse response) {
        ClientResult result = net::ResultFromHttp(response);
        // Forget it now and report it once (the LOBBY_DELETE that follows finds nothing left to remove).
        if (result.type == ErrorType::None && cache_->Remove(lobbyId)) deleted_.Post(lobbyId);
        op->Complete(std::move(result));
    });
}

std::optional<LobbyHandle> LobbiesService::GetLobbyHandle(uint64_t lobbyId) const {
    if (!cache_->Contains(lobbyId)) return std::nullopt;
    return LobbyHandle(cache_, users_, refs_().lobbyCalls, lobbyId);
}

void LobbiesService::SetLinkedChannel(uint64_t lobbyId, uint64_t channelId, ClientLinkOrUnlinkChannelCallback &&cb) {
    auto op = ResultOperation::Begin(host_.Ops(), std::move(cb));
    if (!lobbyId) return op->Fail(FailureResult(ErrorType::ValidationError, "lobbyId is 0"));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    nlohmann::json body = {
        {"channel_id", channelId ? nlohmann::json(std::to_string(channelId)) : nlohmann::json(nullptr)}};
    host_.Rest(host_.JsonRequest(routes::kChannelLinking, {lobbyId}, body), [this, op](net::HttpResponse response) {
        LobbyRecord lobby;
        ClientResult result = net::ReadJson(response, lobby, ParseLobby);
        // The answer is the lobby: cache it (LOBBY_UPDATE reports the change) so the handle shows the link.
        if (result.type == ErrorType::None && lobby.id) cache_->Put(std::move(lobby));
        op->Complete(std::move(result));
    });
}

void LobbiesService::LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId, ClientLinkOrUnlinkChannelCallback &&cb) {
    if (!lobbyId || !channelId) {
        auto op = ResultOperation::Begin(host_.Ops(), std::move(cb));
        return op->Fail(FailureResult(ErrorType::ValidationError, "lobbyId and channelId must not be 0"));
    }
    SetLinkedChannel(lobbyId, channelId, std::move(cb));
}

void LobbiesService::UnlinkChannelFromLobby(uint64_t lobbyId, ClientLinkOrUnlinkChannelCallback &&cb) {
    SetLinkedChannel(lobbyId, 0, std::move(cb));
}

void LobbiesService::JoinLinkedLobbyGuild(uint64_t lobbyId, ClientProvisionalUserMergeRequiredCallback &&mergeCb,
                                          ClientJoinLinkedLobbyGuildCallback &&cb) {
    const MergeRequired merge(host_.Ops(), std::move(mergeCb));
    auto op = InviteOperation::Begin(host_.Ops(), std::move(cb));
    auto fail = [&](ClientResult result) {
        merge.Skip();
        op->Fail(std::move(result));
    };
    if (!lobbyId) return fail(FailureResult(ErrorType::ValidationError, "lobbyId is 0"));
    if (auto failure = host_.NotReady()) return fail(*failure);
    host_.Rest(host_.JsonRequest(routes::kGuildInvite, {lobbyId}, nlohmann::json::object()),
               [merge, op](net::HttpResponse response) {
                   std::string url;
                   ClientResult result = net::ReadJson(
                       response, url, [](const nlohmann::json &body) { return wire::String(body, "url"); });
                   if (result.type == ErrorType::HTTPError && result.errorCode == kProvisionalMergeRequired)
                       merge.Fire();
                   else
                       merge.Skip();
                   if (result.type == ErrorType::None && url.empty())
                       result = FailureResult(ErrorType::NetworkError, "the invite answer has no url");
                   op->Complete(std::move(result), std::move(url));
               });
}

}  // namespace svcpp::core::lobbies
