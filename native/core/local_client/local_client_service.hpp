// The local platform client area (native/SEMANTICS.md "Local RPC"): what the game does through the platform client
// running on the same machine. The connection, its retries and the protocol belong to RpcService; this area turns the
// SDK calls into its commands and subscriptions, and its events and answers into the host's callbacks.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "generated/callbacks.hpp"
#include "messages/messages_service.hpp"
#include "runtime/event_slot.hpp"
#include "runtime/service_host.hpp"
#include "users/users_service.hpp"

namespace svcpp::core::net {
class ClientExecutor;
}

namespace svcpp::core::rpc {
class RpcService;
}

namespace svcpp::core::local_client {

class LocalClientService {
  public:
    LocalClientService(CallbackQueue &queue, ServiceHost &host, const net::ClientExecutor &io, std::string ipcPath,
                       users::UsersService &users, messages::MessagesService &messages);
    ~LocalClientService();

    /** The handshake names the application: a new id means a new connection (SetApplicationId). */
    void Start(uint64_t applicationId);
    /** Drop, on the I/O thread. */
    void Shutdown();
    /** ResetCallbacks / Drop: every registration of the area ends (ResetCallbacks then calls UpdateSubscriptions). */
    void ReleaseRegistrations();
    /** Subscribes to the events whose slots are set (after a slot changed). */
    void UpdateSubscriptions();

    /**
     * Rich presence without a gateway session: SET_ACTIVITY (`activity` null clears it). False, and nothing sent, when
     * no local client is connected; else `done` runs on the I/O thread with the outcome.
     */
    bool SetLocalActivity(const nlohmann::json &activity, std::function<void(ClientResult)> done);

    // Operations (the C ABI's Client_<Name> of this area).
    void RegisterAuthorizeRequestCallback(ClientAuthorizeRequestCallback &&cb);
    void RemoveAuthorizeRequestCallback();
    void SetActivityJoinCallback(ClientActivityJoinCallback &&cb);
    void SetActivityJoinWithApplicationCallback(ClientActivityJoinWithApplicationCallback &&cb);
    void OpenMessageInPlatform(uint64_t messageId, ClientProvisionalUserMergeRequiredCallback &&mergeCb,
                               ClientOpenMessageInPlatformCallback &&cb);
    void SetShowingChat(bool showingChat);
    void OpenConnectedGamesSettingsInPlatform(ClientOpenConnectedGamesSettingsInPlatformCallback &&cb);
    void RegisterLaunchCommand(uint64_t applicationId, std::string command);
    void RegisterLaunchSteamApplication(uint64_t applicationId, uint32_t steamAppId);

  private:
    ServiceHost &host_;
    users::UsersService &users_;
    messages::MessagesService &messages_;
    EventSlot<void()> authorizeRequest_;
    EventSlot<void(std::string_view)> join_;
    EventSlot<void(uint64_t, std::string_view)> joinWithApplication_;
    std::shared_ptr<rpc::RpcService> rpc_;  // runs on the client's I/O thread; its events go through the slots above
};

}  // namespace svcpp::core::local_client
