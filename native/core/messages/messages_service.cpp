#include "messages/messages_service.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include <nlohmann/json.hpp>

#include "messages/messages_routes.hpp"
#include "messages/validation.hpp"
#include "net/json_fields.hpp"
#include "net/json_text.hpp"
#include "net/results.hpp"

namespace svcpp::core::messages {

void MessagesService::Register(DispatchTable &table) {
    // A new session: what was cached from an earlier one may have missed messages (history is fetched again).
    table.On("READY", [this](std::string_view, const nlohmann::json &) { cache_->Clear(); });
    for (const char *type : {"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "LOBBY_MESSAGE_CREATE",
                             "LOBBY_MESSAGE_UPDATE", "LOBBY_MESSAGE_DELETE"}) {
        table.On(type, [this](std::string_view t, const nlohmann::json &data) {
            // A lobby message the catch-up after a gap already delivered is not delivered again.
            if (t == "LOBBY_MESSAGE_CREATE" &&
                !catchUp_.Admit(wire::Snowflake(data, "lobby_id"), wire::Snowflake(data, "id")))
                return;
            Post(ApplyDispatch(*cache_, *users_, users_->CurrentUserId(), t, data));
        });
    }
}

void MessagesService::Post(const std::vector<MessageEvent> &events) {
    using Kind = MessageEvent::Kind;
    for (const auto &e : events) {
        switch (e.kind) {
            case Kind::Created: created_.Post(e.messageId); break;
            case Kind::Updated: updated_.Post(e.messageId); break;
            case Kind::Deleted: deleted_.Post(e.messageId, e.channelId); break;
        }
    }
}

void MessagesService::ReleaseRegistrations() {
    created_.Set({});
    updated_.Set({});
    deleted_.Set({});
}

// ---- Operations (platform/PROTOCOL.md §10.4–10.5, native/SEMANTICS.md "Social layer: lobbies, lobby chat, …") ---

namespace {

using SendOperation = Operation<void(const ClientResult &, uint64_t)>;
using ResultOperation = Operation<void(const ClientResult &)>;
using MessagesOperation = Operation<void(const ClientResult &, const std::vector<MessageHandle> &)>;
using SummariesOperation = Operation<void(const ClientResult &, const std::vector<UserMessageSummary> &)>;

std::vector<UserMessageSummary> ParseSummaries(const nlohmann::json &body) {
    std::vector<UserMessageSummary> summaries;
    if (!body.is_array()) return summaries;
    for (const auto &entry : body) {
        UserMessageSummary s{wire::Snowflake(entry, "user_id"), wire::Snowflake(entry, "last_message_id")};
        if (s.userId) summaries.push_back(s);
    }
    return summaries;
}

std::string LimitQuery(int32_t limit) { return "?limit=" + std::to_string(limit); }

}  // namespace

std::shared_ptr<const MessageCache::Entry> MessagesService::CacheAnswer(const nlohmann::json &message) {
    return CacheMessage(*cache_, *users_, users_->CurrentUserId(), message);
}

void MessagesService::SendMessage(MessageTarget target, uint64_t targetId, std::string content,
                                  std::optional<Properties> metadata, ClientSendUserMessageCallback &&cb) {
    auto op = SendOperation::Begin(host_.Ops(), std::move(cb));
    const bool lobby = target == MessageTarget::Lobby;
    if (!targetId)
        return op->Fail(FailureResult(ErrorType::ValidationError, lobby ? "lobbyId is 0" : "recipientId is 0"));
    if (auto error = validation::CheckContent(content))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (metadata)
        if (auto error = validation::CheckMetadata(*metadata, "message metadata"))
            return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    nlohmann::json body = {{"content", std::move(content)}};
    if (metadata) body["metadata"] = wire::MapJson(*metadata);
    host_.Rest(host_.JsonRequest(lobby ? routes::kSendToLobby : routes::kSendToUser, {targetId}, body),
               [this, op](net::HttpResponse response) {
                   uint64_t messageId = 0;
                   ClientResult result = net::ReadJson(response, messageId, [this](const nlohmann::json &message) {
                       // Cached now (the CREATE dispatch reports it): GetMessageHandle works inside the callback.
                       auto entry = CacheAnswer(message);
                       return entry ? cache_->Read(*entry).id : uint64_t{0};
                   });
                   op->Complete(std::move(result), messageId);
               });
}

void MessagesService::SendLobbyMessage(uint64_t lobbyId, std::string content, ClientSendUserMessageCallback &&cb) {
    SendMessage(MessageTarget::Lobby, lobbyId, std::move(content), std::nullopt, std::move(cb));
}

void MessagesService::SendLobbyMessageWithMetadata(uint64_t lobbyId, std::string content, Properties metadata,
                                                   ClientSendUserMessageCallback &&cb) {
    SendMessage(MessageTarget::Lobby, lobbyId, std::move(content), std::move(metadata), std::move(cb));
}

void MessagesService::SendUserMessage(uint64_t recipientId, std::string content, ClientSendUserMessageCallback &&cb) {
    SendMessage(MessageTarget::User, recipientId, std::move(content), std::nullopt, std::move(cb));
}

void MessagesService::SendUserMessageWithMetadata(uint64_t recipientId, std::string content, Properties metadata,
                                                  ClientSendUserMessageCallback &&cb) {
    SendMessage(MessageTarget::User, recipientId, std::move(content), std::move(metadata), std::move(cb));
}

void MessagesService::EditUserMessage(uint64_t recipientId, uint64_t messageId, std::string content,
                                      ClientEditUserMessageCallback &&cb) {
    auto op = ResultOperation::Begin(host_.Ops(), std::move(cb));
    if (!recipientId || !messageId)
        return op->Fail(FailureResult(ErrorType::ValidationError, "recipientId and messageId must not be 0"));
    if (auto error = validation::CheckContent(content))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    host_.Rest(host_.JsonRequest(routes::kEditUserMessage, {recipientId, messageId}, {{"content", std::move(content)}}),
               [this, op](net::HttpResponse response) {
                   bool cached = false;
                   ClientResult result = net::ReadJson(response, cached, [this](const nlohmann::json &message) {
                       return CacheAnswer(message) != nullptr;
                   });
                   op->Complete(std::move(result));
               });
}

void MessagesService::DeleteUserMessage(uint64_t recipientId, uint64_t messageId,
                                        ClientDeleteUserMessageCallback &&cb) {
    auto op = ResultOperation::Begin(host_.Ops(), std::move(cb));
    if (!recipientId || !messageId)
        return op->Fail(FailureResult(ErrorType::ValidationError, "recipientId and messageId must not be 0"));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    host_.Rest(host_.Request(routes::kDeleteUserMessage, {recipientId, messageId}),
               [this, op, messageId](net::HttpResponse response) {
                   ClientResult result = net::ResultFromHttp(response);
                   if (result.type == ErrorType::None) cache_->Remove(messageId);  // MESSAGE_DELETE reports it
                   op->Complete(std::move(result));
               });
}

std::optional<MessageHandle> MessagesService::GetMessageHandle(uint64_t messageId) const {
    auto entry = cache_->Find(messageId);
    if (!entry) return std::nullopt;
    return MessageHandle(refs_(), std::move(entry));
}

std::optional<ChannelHandle> MessagesService::GetChannelHandle(uint64_t channelId) const {
    CacheRefs refs = refs_();
    if (!ChannelHandle::Lookup(refs, channelId)) return std::nullopt;
    return ChannelHandle(std::move(refs), channelId);
}

bool MessagesService::CanOpenMessageInPlatform(uint64_t messageId) const {
    auto entry = cache_->Find(messageId);
    if (!entry) return false;
    const MessageRecord message = cache_->Read(*entry);
    // Only persistent DMs and messages of linked lobbies exist in the platform's own client
    // (CanOpenMessageInPlatform, native/SEMANTICS.md "Social layer: lobbies, lobby chat, direct messages, …").
    if (message.channelType == ChannelType::Dm) return true;
    return message.lobbyId &&
           lobbies_->Read(message.lobbyId, [](const LobbyRecord &lobby) { return lobby.linkedChannel.has_value(); })
               .value_or(false);
}

void MessagesService::GetLobbyMessagesWithLimit(uint64_t lobbyId, int32_t limit, ClientGetLobbyMessagesCallback &&cb) {
    auto op = MessagesOperation::Begin(host_.Ops(), std::move(cb));
    if (!lobbyId) return op->Fail(FailureResult(ErrorType::ValidationError, "lobbyId is 0"));
    if (auto error = validation::CheckHistoryLimit(limit))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    host_.Rest(host_.Request(routes::kLobbyHistory, {lobbyId}, LimitQuery(limit)),
               [this, op](net::HttpResponse response) {
                   std::vector<MessageHandle> handles;
                   ClientResult result = net::ReadJson(response, handles, [this](const nlohmann::json &body) {
                       std::vector<MessageHandle> out;
                       if (!body.is_array()) return out;
                       for (const auto &message : body)
                           if (auto entry = CacheAnswer(message)) out.emplace_back(refs_(), std::move(entry));
                       return out;
                   });
                   op->Complete(std::move(result), std::move(handles));
               });
}

// ---- Catching up on lobby chat after a gap (native/SEMANTICS.md "Delivery across drops and restarts") ----------

namespace {
/** Messages per catch-up page: the platform's largest history page. */
constexpr int kCatchUpPageSize = 200;
/** Failed attempts at one page before the lobby's catch-up is given up (logged at Warning). */
constexpr int kCatchUpMaxFailures = 5;
constexpr auto kCatchUpRetryDelay = std::chrono::seconds(1);
}  // namespace

void MessagesService::CatchUpLobbyMessages() {
    for (const auto &fetch : catchUp_.BeginGap(lobbies_->Ids())) FetchLobbyCatchUpPage(fetch, 0);
}

void MessagesService::FetchLobbyCatchUpPage(LobbyCatchUp::Fetch fetch, int failures) {
    const std::string query = "?limit=" + std::to_string(kCatchUpPageSize) + "&after=" + std::to_string(fetch.after);
    host_.Rest(host_.Request(routes::kLobbyHistory, {fetch.lobbyId}, query), [this, fetch,
                                                                              failures](net::HttpResponse response) {
        if (!catchUp_.IsCurrent(fetch)) return;  // a newer session started its own catch-up
        nlohmann::json body;
        if (response.status == 200) body = net::ParseJson(response.body);
        if (!body.is_array()) {
            if (failures + 1 >= kCatchUpMaxFailures) {
                host_.Log().Log(LoggingSeverity::Warning, "lobby " + std::to_string(fetch.lobbyId) +
                                                              ": the messages of the gap could not be fetched (HTTP " +
                                                              std::to_string(response.status) + "); giving up");
                return catchUp_.Abandon(fetch);
            }
            host_.RunAfter(kCatchUpRetryDelay, [this, fetch, failures] { FetchLobbyCatchUpPage(fetch, failures + 1); });
            return;
        }
        // Pages are newest first: delivered oldest first, each message once (live copies may have come already).
        uint64_t newest = 0;
        std::vector<MessageEvent> events;
        for (auto it = body.rbegin(); it != body.rend(); ++it) {
            const uint64_t id = wire::Snowflake(*it, "id");
            newest = std::max(newest, id);
            if (!id || wire::Snowflake(*it, "lobby_id") != fetch.lobbyId || !catchUp_.Admit(fetch.lobbyId, id))
                continue;
            if (CacheAnswer(*it)) events.push_back({MessageEvent::Kind::Created, id});
        }
        Post(events);
        if (auto next = catchUp_.PageDone(fetch, newest, body.size() >= static_cast<size_t>(kCatchUpPageSize)))
            FetchLobbyCatchUpPage(*next, 0);
    });
}

void MessagesService::GetUserMessagesWithLimit(uint64_t recipientId, int32_t limit,
                                               ClientUserMessagesWithLimitCallback &&cb) {
    auto op = MessagesOperation::Begin(host_.Ops(), std::move(cb));
    if (!recipientId) return op->Fail(FailureResult(ErrorType::ValidationError, "recipientId is 0"));
    if (auto error = validation::CheckHistoryLimit(limit))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    auto cached = cache_->Recent(cache_->DmChannelWith(recipientId), static_cast<size_t>(limit));
    if (cached.size() >= static_cast<size_t>(limit)) {
        std::vector<MessageHandle> handles;
        for (auto &entry : cached) handles.emplace_back(refs_(), std::move(entry));
        return op->Complete(ClientResult{}, std::move(handles));
    }
    // The cache holds fewer than asked: fetch the history and merge both, newest first, without duplicates.
    host_.Rest(host_.Request(routes::kDmHistory, {recipientId}, LimitQuery(limit)),
               [this, op, limit, cached = std::move(cached)](net::HttpResponse response) mutable {
                   using Merged = std::map<uint64_t, std::shared_ptr<const MessageCache::Entry>, std::greater<>>;
                   Merged merged;
                   ClientResult result = net::ReadJson(response, merged, [&](const nlohmann::json &body) {
                       Merged out;
                       for (auto &entry : cached) out.emplace(cache_->Read(*entry).id, entry);
                       if (body.is_array())
                           for (const auto &message : body)
                               if (auto entry = CacheAnswer(message))
                                   out.insert_or_assign(cache_->Read(*entry).id, std::move(entry));
                       return out;
                   });
                   std::vector<MessageHandle> handles;
                   for (auto &[id, entry] : merged) {
                       if (handles.size() == static_cast<size_t>(limit)) break;
                       handles.emplace_back(refs_(), entry);
                   }
                   op->Complete(std::move(result), std::move(handles));
               });
}

void MessagesService::GetUserMessageSummaries(ClientUserMessageSummariesCallback &&cb) {
    auto op = SummariesOperation::Begin(host_.Ops(), std::move(cb));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    host_.Rest(host_.Request(routes::kDmSummaries), [op](net::HttpResponse response) {
        std::vector<UserMessageSummary> summaries;
        ClientResult result = net::ReadJson(response, summaries, ParseSummaries);
        op->Complete(std::move(result), std::move(summaries));
    });
}

}  // namespace svcpp::core::messages
