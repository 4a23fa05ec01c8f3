// The lobbies area (platform/PROTOCOL.md §10.5, native/SEMANTICS.md "Social layer: lobbies, lobby chat, direct
// messages"): the lobby cache, its six event slots, and the routing of READY `lobbies` and LOBBY_* to the pure
// reducers of lobbies/lobby_dispatch.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "generated/callbacks.hpp"
#include "lobbies/lobby_cache.hpp"
#include "lobbies/lobby_dispatch.hpp"
#include "lobbies/lobby_handle.hpp"
#include "runtime/dispatch_table.hpp"
#include "messages/cache_refs.hpp"
#include "runtime/event_slot.hpp"
#include "runtime/service_host.hpp"
#include "users/user_cache.hpp"

namespace svcpp::core::lobbies {

class LobbiesService {
  public:
    LobbiesService(CallbackQueue &queue, ServiceHost &host, std::shared_ptr<UserCache> users, CacheRefsFn refs)
        : host_(host),
          users_(std::move(users)),
          refs_(std::move(refs)),
          created_(queue),
          deleted_(queue),
          updated_(queue),
          memberAdded_(queue),
          memberRemoved_(queue),
          memberUpdated_(queue) {}

    void Register(DispatchTable &table);
    void Post(const std::vector<LobbyEvent> &events);
    /** The session ended: every lobby is forgotten and reported Deleted (lost with the connection). */
    void Clear();

    const std::shared_ptr<LobbyCache> &Cache() const { return cache_; }
    EventSlot<void(uint64_t)> &Created() { return created_; }
    EventSlot<void(uint64_t)> &Deleted() { return deleted_; }
    EventSlot<void(uint64_t)> &Updated() { return updated_; }
    EventSlot<void(uint64_t, uint64_t)> &MemberAdded() { return memberAdded_; }
    EventSlot<void(uint64_t, uint64_t)> &MemberRemoved() { return memberRemoved_; }
    EventSlot<void(uint64_t, uint64_t)> &MemberUpdated() { return memberUpdated_; }
    void ReleaseRegistrations();

    // Operations (the C ABI's Client_<Name> of this area). The calls are REST requests whose answers also go into
    // the cache, so a handle read inside the completion callback already sees the result.
    void CreateOrJoinLobby(std::string secret, ClientCreateOrJoinLobbyCallback &&cb);
    void CreateOrJoinLobbyWithMetadata(std::string secret, Properties lobbyMetadata, Properties memberMetadata,
                                       ClientCreateOrJoinLobbyCallback &&cb);
    void LeaveLobby(uint64_t lobbyId, ClientLeaveLobbyCallback &&cb);
    std::optional<LobbyHandle> GetLobbyHandle(uint64_t lobbyId) const;
    std::vector<uint64_t> GetLobbyIds() const { return cache_->Ids(); }
    void SetLobbyCreatedCallback(ClientLobbyCreatedCallback &&cb) { created_.Set(std::move(cb)); }
    void SetLobbyDeletedCallback(ClientLobbyDeletedCallback &&cb) { deleted_.Set(std::move(cb)); }
    void SetLobbyUpdatedCallback(ClientLobbyUpdatedCallback &&cb) { updated_.Set(std::move(cb)); }
    void SetLobbyMemberAddedCallback(ClientLobbyMemberAddedCallback &&cb) { memberAdded_.Set(std::move(cb)); }
    void SetLobbyMemberRemovedCallback(ClientLobbyMemberRemovedCallback &&cb) { memberRemoved_.Set(std::move(cb)); }
    void SetLobbyMemberUpdatedCallback(ClientLobbyMemberUpdatedCallback &&cb) { memberUpdated_.Set(std::move(cb)); }
    void LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId, ClientLinkOrUnlinkChannelCallback &&cb);
    void UnlinkChannelFromLobby(uint64_t lobbyId, ClientLinkOrUnlinkChannelCallback &&cb);
    void JoinLinkedLobbyGuild(uint64_t lobbyId, ClientProvisionalUserMergeRequiredCallback &&mergeCb,
                              ClientJoinLinkedLobbyGuildCallback &&cb);

  private:
    /** PATCH /lobbies/{id}/channel-linking (channelId 0 unlinks); the answer, the lobby, goes into the cache. */
    void SetLinkedChannel(uint64_t lobbyId, uint64_t channelId, ClientLinkOrUnlinkChannelCallback &&cb);

    ServiceHost &host_;
    std::shared_ptr<UserCache> users_;
    CacheRefsFn refs_;
    std::shared_ptr<LobbyCache> cache_ = std::make_shared<LobbyCache>();
    EventSlot<void(uint64_t)> created_;
    EventSlot<void(uint64_t)> deleted_;
    EventSlot<void(uint64_t)> updated_;
    EventSlot<void(uint64_t, uint64_t)> memberAdded_;
    EventSlot<void(uint64_t, uint64_t)> memberRemoved_;
    EventSlot<void(uint64_t, uint64_t)> memberUpdated_;
};

}  // namespace svcpp::core::lobbies
