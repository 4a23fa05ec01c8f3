// Client: lobby and direct messages (platform/PROTOCOL.md §10.4–10.5, native/SEMANTICS.md "Social layer: lobbies, lobby
// chat, direct messages"). The message cache is fed by the MESSAGE_* / LOBBY_MESSAGE_* dispatches and by every HTTP
// answer carrying messages (sent, edited, fetched), so handles handed to a callback always have an entry to read.
#include <algorithm>
#include <chrono>
#include <map>

#include <nlohmann/json.hpp>

#include "client/client_net.hpp"
#include "auth/requests.hpp"
#include "messages/message_dispatch.hpp"
#include "messages/validation.hpp"
#include "net/json_fields.hpp"
#include "net/json_text.hpp"
#include "net/results.hpp"

namespace svcpp::core {

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

}  // namespace

// ---- Sending, editing, deleting -------------------------------------------------------------------------

void Client::SendMessage(bool lobby, uint64_t targetId, std::string content, std::optional<Properties> metadata,
                         ClientSendUserMessageCallback &&cb) {
    auto op = SendOperation::Begin(operations_, std::move(cb));
    if (!targetId)
        return op->Fail(FailureResult(ErrorType::ValidationError, lobby ? "lobbyId is 0" : "recipientId is 0"));
    if (auto error = validation::CheckContent(content))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (metadata)
        if (auto error = validation::CheckMetadata(*metadata, "message metadata"))
            return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = NotReady()) return op->Fail(*failure);
    nlohmann::json body = {{"content", std::move(content)}};
    if (metadata) body["metadata"] = wire::MapJson(*metadata);
    const std::string id = std::to_string(targetId);
    auto request = lobby ? auth::BearerJsonRequest("POST", apiBase_ + "/lobbies/" + id + "/messages",
                                                   "POST /lobbies/:id/messages", CurrentToken(), body)
                         : auth::BearerJsonRequest("POST", apiBase_ + "/users/" + id + "/messages",
                                                   "POST /users/:id/messages", CurrentToken(), body);
    Rest(std::move(request), [this, op](net::HttpResponse response) {
        uint64_t messageId = 0;
        ClientResult result = net::ReadJson(response, messageId, [this](const nlohmann::json &message) {
            // Cached now (the CREATE dispatch reports it): GetMessageHandle works inside the callback.
            auto entry =
                messages::CacheMessage(*messages_.Cache(), *users_.Cache(), users_.Cache()->CurrentUserId(), message);
            return entry ? messages_.Cache()->Read(*entry).id : uint64_t{0};
        });
        op->Complete(std::move(result), messageId);
    });
}

void Client::SendLobbyMessage(uint64_t lobbyId, std::string content, ClientSendUserMessageCallback &&cb) {
    SendMessage(true, lobbyId, std::move(content), std::nullopt, std::move(cb));
}

void Client::SendLobbyMessageWithMetadata(uint64_t lobbyId, std::string content, Properties metadata,
                                          ClientSendUserMessageCallback &&cb) {
    SendMessage(true, lobbyId, std::move(content), std::move(metadata), std::move(cb));
}

void Client::SendUserMessage(uint64_t recipientId, std::string content, ClientSendUserMessageCallback &&cb) {
    SendMessage(false, recipientId, std::move(content), std::nullopt, std::move(cb));
}

void Client::SendUserMessageWithMetadata(uint64_t recipientId, std::string content, Properties metadata,
                                         ClientSendUserMessageCallback &&cb) {
    SendMessage(false, recipientId, std::move(content), std::move(metadata), std::move(cb));
}

void Client::EditUserMessage(uint64_t recipientId, uint64_t messageId, std::string content,
                             ClientEditUserMessageCallback &&cb) {
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    if (!recipientId || !messageId)
        return op->Fail(FailureResult(ErrorType::ValidationError, "recipientId and messageId must not be 0"));
    if (auto error = validation::CheckContent(content))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = NotReady()) return op->Fail(*failure);
    const std::string url =
        apiBase_ + "/users/" + std::to_string(recipientId) + "/messages/" + std::to_string(messageId);
    Rest(auth::BearerJsonRequest("PATCH", url, "PATCH /users/:id/messages/:id", CurrentToken(),
                                 {{"content", std::move(content)}}),
         [this, op](net::HttpResponse response) {
             bool cached = false;
             ClientResult result = net::ReadJson(response, cached, [this](const nlohmann::json &message) {
                 return messages::CacheMessage(*messages_.Cache(), *users_.Cache(), users_.Cache()->CurrentUserId(),
                                               message) != nullptr;
             });
             op->Complete(std::move(result));
         });
}

void Client::DeleteUserMessage(uint64_t recipientId, uint64_t messageId, ClientDeleteUserMessageCallback &&cb) {
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    if (!recipientId || !messageId)
        return op->Fail(FailureResult(ErrorType::ValidationError, "recipientId and messageId must not be 0"));
    if (auto failure = NotReady()) return op->Fail(*failure);
    const std::string url =
        apiBase_ + "/users/" + std::to_string(recipientId) + "/messages/" + std::to_string(messageId);
    Rest(auth::BearerRequest("DELETE", url, "DELETE /users/:id/messages/:id", CurrentToken()),
         [this, op, messageId](net::HttpResponse response) {
             ClientResult result = net::ResultFromHttp(response);
             if (result.type == ErrorType::None) messages_.Cache()->Remove(messageId);  // MESSAGE_DELETE reports it
             op->Complete(std::move(result));
         });
}

// ---- Reading --------------------------------------------------------------------------------------------

std::optional<MessageHandle> Client::GetMessageHandle(uint64_t messageId) const {
    auto entry = messages_.Cache()->Find(messageId);
    if (!entry) return std::nullopt;
    return MessageHandle(Refs(), std::move(entry));
}

std::optional<ChannelHandle> Client::GetChannelHandle(uint64_t channelId) const {
    if (!ChannelHandle::Lookup(Refs(), channelId)) return std::nullopt;
    return ChannelHandle(Refs(), channelId);
}

bool Client::CanOpenMessageInPlatform(uint64_t messageId) const {
    auto entry = messages_.Cache()->Find(messageId);
    if (!entry) return false;
    const MessageRecord message = messages_.Cache()->Read(*entry);
    // Only persistent DMs and messages of linked lobbies exist in the platform's own client
    // (CanOpenMessageInPlatform, native/SEMANTICS.md "Social layer: lobbies, lobby chat, direct messages, …").
    if (message.channelType == ChannelType::Dm) return true;
    return message.lobbyId &&
           lobbies_.Cache()
               ->Read(message.lobbyId, [](const LobbyRecord &lobby) { return lobby.linkedChannel.has_value(); })
               .value_or(false);
}

void Client::GetLobbyMessagesWithLimit(uint64_t lobbyId, int32_t limit, ClientGetLobbyMessagesCallback &&cb) {
    auto op = MessagesOperation::Begin(operations_, std::move(cb));
    if (!lobbyId) return op->Fail(FailureResult(ErrorType::ValidationError, "lobbyId is 0"));
    if (auto error = validation::CheckHistoryLimit(limit))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = NotReady()) return op->Fail(*failure);
    const std::string url =
        apiBase_ + "/lobbies/" + std::to_string(lobbyId) + "/messages?limit=" + std::to_string(limit);
    Rest(auth::BearerRequest("GET", url, "GET /lobbies/:id/messages", CurrentToken()),
         [this, op](net::HttpResponse response) {
             std::vector<MessageHandle> handles;
             ClientResult result = net::ReadJson(response, handles, [this](const nlohmann::json &body) {
                 std::vector<MessageHandle> out;
                 if (!body.is_array()) return out;
                 for (const auto &message : body)
                     if (auto entry = messages::CacheMessage(*messages_.Cache(), *users_.Cache(),
                                                             users_.Cache()->CurrentUserId(), message))
                         out.emplace_back(Refs(), std::move(entry));
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

void Client::CatchUpLobbyMessages() {
    for (const auto &fetch : messages_.CatchUp().BeginGap(lobbies_.Cache()->Ids())) FetchLobbyCatchUpPage(fetch, 0);
}

void Client::FetchLobbyCatchUpPage(messages::LobbyCatchUp::Fetch fetch, int failures) {
    const std::string url = apiBase_ + "/lobbies/" + std::to_string(fetch.lobbyId) +
                            "/messages?limit=" + std::to_string(kCatchUpPageSize) +
                            "&after=" + std::to_string(fetch.after);
    Rest(auth::BearerRequest("GET", url, "GET /lobbies/:id/messages", CurrentToken()),
         [this, fetch, failures](net::HttpResponse response) {
             auto &catchUp = messages_.CatchUp();
             if (!catchUp.IsCurrent(fetch)) return;  // a newer session started its own catch-up
             nlohmann::json body;
             if (response.status == 200) body = net::ParseJson(response.body);
             if (!body.is_array()) {
                 const std::string lobby = std::to_string(fetch.lobbyId);
                 if (failures + 1 >= kCatchUpMaxFailures) {
                     logger_.Log(LoggingSeverity::Warning, "lobby " + lobby +
                                                               ": the messages of the gap could not be fetched (HTTP " +
                                                               std::to_string(response.status) + "); giving up");
                     return catchUp.Abandon(fetch);
                 }
                 OnIo([this, fetch, failures](Net &net) {
                     auto timer = std::make_shared<boost::asio::steady_timer>(net.io, kCatchUpRetryDelay);
                     timer->async_wait([this, timer, fetch, failures](const boost::system::error_code &ec) {
                         if (!ec) FetchLobbyCatchUpPage(fetch, failures + 1);
                     });
                 });
                 return;
             }
             // Pages are newest first: delivered oldest first, each message once (live copies may have come already).
             uint64_t newest = 0;
             std::vector<uint64_t> created;
             for (auto it = body.rbegin(); it != body.rend(); ++it) {
                 const uint64_t id = wire::Snowflake(*it, "id");
                 newest = std::max(newest, id);
                 if (!id || wire::Snowflake(*it, "lobby_id") != fetch.lobbyId || !catchUp.Admit(fetch.lobbyId, id))
                     continue;
                 if (messages::CacheMessage(*messages_.Cache(), *users_.Cache(), users_.Cache()->CurrentUserId(), *it))
                     created.push_back(id);
             }
             std::vector<messages::MessageEvent> events;
             for (uint64_t id : created) events.push_back({messages::MessageEvent::Kind::Created, id});
             messages_.Post(events);
             if (auto next = catchUp.PageDone(fetch, newest, body.size() >= static_cast<size_t>(kCatchUpPageSize)))
                 FetchLobbyCatchUpPage(*next, 0);
         });
}

void Client::GetUserMessagesWithLimit(uint64_t recipientId, int32_t limit, ClientUserMessagesWithLimitCallback &&cb) {
    auto op = MessagesOperation::Begin(operations_, std::move(cb));
    if (!recipientId) return op->Fail(FailureResult(ErrorType::ValidationError, "recipientId is 0"));
    if (auto error = validation::CheckHistoryLimit(limit))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    if (auto failure = NotReady()) return op->Fail(*failure);
    auto cached = messages_.Cache()->Recent(messages_.Cache()->DmChannelWith(recipientId), static_cast<size_t>(limit));
    if (cached.size() >= static_cast<size_t>(limit)) {
        std::vector<MessageHandle> handles;
        for (auto &entry : cached) handles.emplace_back(Refs(), std::move(entry));
        return op->Complete(ClientResult{}, std::move(handles));
    }
    // The cache holds fewer than asked: fetch the history and merge both, newest first, without duplicates.
    const std::string url =
        apiBase_ + "/users/@me/dms/" + std::to_string(recipientId) + "/messages?limit=" + std::to_string(limit);
    Rest(auth::BearerRequest("GET", url, "GET /users/@me/dms/:id/messages", CurrentToken()),
         [this, op, limit, cached = std::move(cached)](net::HttpResponse response) mutable {
             std::map<uint64_t, std::shared_ptr<const MessageCache::Entry>, std::greater<>> merged;
             ClientResult result = net::ReadJson(response, merged, [&](const nlohmann::json &body) {
                 std::map<uint64_t, std::shared_ptr<const MessageCache::Entry>, std::greater<>> out;
                 for (auto &entry : cached) out.emplace(messages_.Cache()->Read(*entry).id, entry);
                 if (body.is_array())
                     for (const auto &message : body)
                         if (auto entry = messages::CacheMessage(*messages_.Cache(), *users_.Cache(),
                                                                 users_.Cache()->CurrentUserId(), message))
                             out.insert_or_assign(messages_.Cache()->Read(*entry).id, std::move(entry));
                 return out;
             });
             std::vector<MessageHandle> handles;
             for (auto &[id, entry] : merged) {
                 if (handles.size() == static_cast<size_t>(limit)) break;
                 handles.emplace_back(Refs(), entry);
             }
             op->Complete(std::move(result), std::move(handles));
         });
}

void Client::GetUserMessageSummaries(ClientUserMessageSummariesCallback &&cb) {
    auto op = SummariesOperation::Begin(operations_, std::move(cb));
    if (auto failure = NotReady()) return op->Fail(*failure);
    Rest(auth::BearerRequest("GET", apiBase_ + "/users/@me/dms", "GET /users/@me/dms", CurrentToken()),
         [op](net::HttpResponse response) {
             std::vector<UserMessageSummary> summaries;
             ClientResult result = net::ReadJson(response, summaries, ParseSummaries);
             op->Complete(std::move(result), std::move(summaries));
         });
}

}  // namespace svcpp::core
