// The messages area (direct messages platform/PROTOCOL.md §10.4, lobby chat §10.5): the message cache, its event
// slots, and the routing of MESSAGE_* / LOBBY_MESSAGE_* to the pure reducer of messages/message_dispatch. READY
// starts a new session, whose history is fetched again: the cache is cleared. After a gap, the client catches up on
// lobby chat (LobbyCatchUp): LOBBY_MESSAGE_CREATE of a message already delivered is dropped here.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "generated/callbacks.hpp"
#include "lobbies/lobby_cache.hpp"
#include "messages/cache_refs.hpp"
#include "messages/channel_handle.hpp"
#include "messages/lobby_catch_up.hpp"
#include "messages/message_cache.hpp"
#include "messages/message_dispatch.hpp"
#include "runtime/dispatch_table.hpp"
#include "messages/message_handle.hpp"
#include "runtime/event_slot.hpp"
#include "runtime/service_host.hpp"
#include "users/user_cache.hpp"

namespace svcpp::core::messages {

/** Where a message goes: a lobby's chat or a user's direct messages. */
enum class MessageTarget { Lobby, User };

class MessagesService {
  public:
    MessagesService(CallbackQueue &queue, ServiceHost &host, std::shared_ptr<UserCache> users,
                    std::shared_ptr<const LobbyCache> lobbies, CacheRefsFn refs)
        : host_(host),
          users_(std::move(users)),
          lobbies_(std::move(lobbies)),
          refs_(std::move(refs)),
          created_(queue),
          updated_(queue),
          deleted_(queue) {}

    void Register(DispatchTable &table);
    void Post(const std::vector<MessageEvent> &events);

    const std::shared_ptr<MessageCache> &Cache() const { return cache_; }
    /** I/O thread only. */
    LobbyCatchUp &CatchUp() { return catchUp_; }
    EventSlot<void(uint64_t)> &Created() { return created_; }
    EventSlot<void(uint64_t)> &Updated() { return updated_; }
    EventSlot<void(uint64_t, uint64_t)> &Deleted() { return deleted_; }
    void ReleaseRegistrations();

    // Operations (the C ABI's Client_<Name> of this area). The cache is fed by the dispatches and by every HTTP
    // answer carrying messages (sent, edited, fetched), so handles handed to a callback always have an entry to read.
    void SendLobbyMessage(uint64_t lobbyId, std::string content, ClientSendUserMessageCallback &&cb);
    void SendLobbyMessageWithMetadata(uint64_t lobbyId, std::string content, Properties metadata,
                                      ClientSendUserMessageCallback &&cb);
    void SendUserMessage(uint64_t recipientId, std::string content, ClientSendUserMessageCallback &&cb);
    void SendUserMessageWithMetadata(uint64_t recipientId, std::string content, Properties metadata,
                                     ClientSendUserMessageCallback &&cb);
    void EditUserMessage(uint64_t recipientId, uint64_t messageId, std::string content,
                         ClientEditUserMessageCallback &&cb);
    void DeleteUserMessage(uint64_t recipientId, uint64_t messageId, ClientDeleteUserMessageCallback &&cb);
    std::optional<MessageHandle> GetMessageHandle(uint64_t messageId) const;
    std::optional<ChannelHandle> GetChannelHandle(uint64_t channelId) const;
    void GetLobbyMessagesWithLimit(uint64_t lobbyId, int32_t limit, ClientGetLobbyMessagesCallback &&cb);
    void GetUserMessagesWithLimit(uint64_t recipientId, int32_t limit, ClientUserMessagesWithLimitCallback &&cb);
    void GetUserMessageSummaries(ClientUserMessageSummariesCallback &&cb);
    bool CanOpenMessageInPlatform(uint64_t messageId) const;
    void SetMessageCreatedCallback(ClientMessageCreatedCallback &&cb) { created_.Set(std::move(cb)); }
    void SetMessageUpdatedCallback(ClientMessageUpdatedCallback &&cb) { updated_.Set(std::move(cb)); }
    void SetMessageDeletedCallback(ClientMessageDeletedCallback &&cb) { deleted_.Set(std::move(cb)); }

    /**
     * After a READY that ended a gap: fetches and delivers the lobby messages of the gap (native/SEMANTICS.md
     * "Delivery across drops and restarts").
     */
    void CatchUpLobbyMessages();

  private:
    /** Sends a message and completes cb with its id; the answer is cached like a dispatch. */
    void SendMessage(MessageTarget target, uint64_t targetId, std::string content, std::optional<Properties> metadata,
                     ClientSendUserMessageCallback &&cb);
    /** One page of a lobby's catch-up; a failed page is tried again after a second, up to a few times. */
    void FetchLobbyCatchUpPage(LobbyCatchUp::Fetch fetch, int failures);
    /** Caches a message of an HTTP answer (as its dispatch would); null when it is not one. */
    std::shared_ptr<const MessageCache::Entry> CacheAnswer(const nlohmann::json &message);

    ServiceHost &host_;
    std::shared_ptr<UserCache> users_;
    std::shared_ptr<const LobbyCache> lobbies_;
    CacheRefsFn refs_;
    std::shared_ptr<MessageCache> cache_ = std::make_shared<MessageCache>();
    LobbyCatchUp catchUp_;
    EventSlot<void(uint64_t)> created_;
    EventSlot<void(uint64_t)> updated_;
    EventSlot<void(uint64_t, uint64_t)> deleted_;
};

}  // namespace svcpp::core::messages
