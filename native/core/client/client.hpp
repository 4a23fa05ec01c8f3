// core::Client: the root object of the SDK. Owns the I/O thread, the callback queue, the logger, the token and the
// area services, and keeps what is the client's own: lifecycle, the pump, the connection status and the token (with
// the authentication calls that make one). Every other operation lives in its area's service (users, guilds,
// messages, lobbies, relationships, presence, invites, the local client, voice), which it reaches through the
// ServiceHost this class implements; the generated C marshalling calls `client->Lobbies().LeaveLobby(…)` after
// validating and converting the C arguments (the IDL's `area` of each method). Method names follow the specification
// (svcpp::Client::…).
//
// Threading: every method may be called from any thread. Host callbacks only run inside RunCallbacks.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "generated/callbacks.hpp"
#include "generated/values.hpp"
#include "log/logger.hpp"
#include <nlohmann/json_fwd.hpp>

#include "net/http.hpp"
#include "net/io_thread.hpp"
#include "runtime/callback_queue.hpp"
#include "runtime/event_slot.hpp"
#include "runtime/operations.hpp"
#include "runtime/dispatch_table.hpp"
#include "runtime/service_host.hpp"
#include "auth/auth_service.hpp"
#include "guilds/guilds_service.hpp"
#include "invites/invites_service.hpp"
#include "lobbies/lobbies_service.hpp"
#include "lobbies/lobby_handle.hpp"
#include "messages/channel_handle.hpp"
#include "messages/messages_service.hpp"
#include "messages/message_handle.hpp"
#include "presence/presence_service.hpp"
#include "relationships/relationship_handle.hpp"
#include "relationships/relationship_rules.hpp"
#include "relationships/relationships_service.hpp"
#include "threads/sdk_threads.hpp"
#include "users/users_service.hpp"
#include "users/user_handle.hpp"
#include "voice/call.hpp"

namespace svcpp::core {

namespace local_client {
class LocalClientService;
}
namespace voice {
class VoiceService;
}

class Client final : public std::enable_shared_from_this<Client>, private ServiceHost {
  public:
    static std::shared_ptr<Client> Create(const ClientCreateOptions &options);
    ~Client();
    Client(const Client &) = delete;
    Client &operator=(const Client &) = delete;

    // Static helpers of the specification.
    static std::string GetDefaultCommunicationScopes();
    static std::string GetDefaultPresenceScopes();
    static int32_t GetVersionMajor();
    static int32_t GetVersionMinor();
    static int32_t GetVersionPatch();
    static std::string GetVersionHash();

    const ClientCreateOptions &Options() const { return options_; }

    uint64_t GetApplicationId() const override { return applicationId_.load(); }
    void SetApplicationId(uint64_t applicationId);
    int32_t GetHttpRequestTimeout() const { return httpTimeoutMs_.load(); }
    void SetHttpRequestTimeout(int32_t milliseconds);
    ClientStatus GetStatus() const { return status_.load(); }

    void SetStatusChangedCallback(ClientOnStatusChanged &&cb);
    uint64_t AddLogCallback(LoggingSeverity minSeverity, ClientLogCallback &&cb);
    void RemoveCallback(uint64_t token);
    bool SetLogDir(std::string path, LoggingSeverity minSeverity);

    // Connection (client_connection.cpp).
    void Connect();
    void Disconnect();
    std::optional<ConnectionFailure> GetLastConnectionFailure() const;
    void SetMissedEventsCallback(ClientMissedEventsCallback &&cb) { missedEvents_.Set(std::move(cb)); }
    uint64_t GetDiscardedGatewayMessageCount() const { return discardedMessages_.load(); }

    // The token (client_token.cpp): UpdateToken's, used by every call that needs one.
    void UpdateToken(AuthorizationTokenType tokenType, std::string token, ClientUpdateTokenCallback &&cb);
    bool IsAuthenticated() const;
    void SetTokenExpirationCallback(ClientTokenExpirationCallback &&cb) { tokenExpiration_.Set(std::move(cb)); }

    // The areas: the generated C layer calls their operations (the IDL's `area` of each method).
    auth::AuthService &Auth() { return auth_; }
    users::UsersService &Users() { return users_; }
    guilds::GuildsService &Guilds() { return guilds_; }
    messages::MessagesService &Messages() { return messages_; }
    lobbies::LobbiesService &Lobbies() { return lobbies_; }
    relationships::RelationshipsService &Relationships() { return relationships_; }
    presence::PresenceService &Presence() { return presence_; }
    invites::InvitesService &Invites() { return invites_; }
    local_client::LocalClientService &LocalClient() { return *localClient_; }
    voice::VoiceService &Voice() { return *voice_; }
    const users::UsersService &Users() const { return users_; }
    const messages::MessagesService &Messages() const { return messages_; }
    const lobbies::LobbiesService &Lobbies() const { return lobbies_; }
    const relationships::RelationshipsService &Relationships() const { return relationships_; }
    const voice::VoiceService &Voice() const { return *voice_; }
    /** The user cache, read in place (a lookup snapshot reads a user under its lock, without making a handle). */
    const UserCache &CachedUsers() const { return *users_.Cache(); }

    /** A Linux nice value (-20..19) for the SDK's threads of a kind (threads/sdk_threads.hpp); refusals are logged. */
    void SetThreadPriority(ClientThread thread, int32_t priority);

    void RunCallbacks();
    /** RunCallbacks, at most maxCallbacks of them (Svcpp_Client_RunCallbacksUpTo; native/SEMANTICS.md "Pump and hook").
     */
    void RunCallbacksUpTo(uint32_t maxCallbacks);
    /**
     * RunCallbacksUpTo with `recorder` as the jobs' CurrentPumpRecorder(), stopping before a job when `stopBefore`
     * answers true (Svcpp_Client_DrainEvents; native/SEMANTICS.md "Event records").
     */
    void RunCallbacksRecording(uint32_t maxCallbacks, PumpRecorder *recorder, const std::function<bool()> &stopBefore);
    bool HasPendingCallbacks() const { return queue_.HasPending(); }
    void SetCallbacksPendingHook(CallbacksPendingFn &&hook);

    /** Svcpp_ResetCallbacks for this client: ends every registration, aborts pending one-shots. */
    void ResetCallbacks();
    /**
     * Svcpp_Client_Drop. Inside one of this client's callbacks the teardown is deferred until the callback
     * returns; from another thread while this client is being pumped: AbiError(Busy).
     */
    void Destroy();
    bool IsDestroyed() const { return destroyRequested_.load(); }

    Logger &Log() override { return logger_; }
    CallbackQueue &Queue() { return queue_; }

    /** Base URL of the HTTP API (ClientCreateOptions::ApiBase or the local platform's). */
    const std::string &ApiBase() const override { return apiBase_; }
    const std::string &WebBase() const override { return webBase_; }

  private:
    struct Net;  // the I/O-thread half: HTTP, gateway session, timers (client_net.hpp)

    explicit Client(const ClientCreateOptions &options);
    void StartVoice();  // makes voice_ (needs net_)
    void Teardown();
    void ReleaseRegistrations();

    /** Records a status (any thread) and queues the status event. */
    void SetStatus(ClientStatus status, ClientError error, int32_t detail);
    std::string CurrentToken() const;
    /** Runs fn on the I/O thread with the network half (dropped when the client is being torn down). */
    void OnIo(std::function<void(Net &)> fn);

    // ServiceHost: what the areas' operations use of their client (runtime/service_host.hpp).
    std::string Token() const override { return CurrentToken(); }
    std::optional<ClientResult> NotReady() const override;
    void Rest(net::HttpRequest request, net::HttpDone done) override;
    void Post(std::function<void()> fn) override;
    const net::ClientExecutor &IoExecutor() override;
    void RunAfter(std::chrono::milliseconds delay, std::function<void()> fn) override;
    Operations &Ops() override { return operations_; }
    // gateway (client_connection.cpp)
    void StartGateway(Net &net, std::string url);
    void OnGatewayStatus(ClientStatus status, ClientError error, int32_t detail);
    /** One gateway dispatch: the caches are updated (and their events queued) by the areas that handle its type. */
    void OnDispatch(const std::string &type, const nlohmann::json &data);
    uint64_t SessionApplicationId() const { return presence_.SessionApplicationId(); }
    void ScheduleTokenExpiry(uint64_t generation, std::string token);
    /** Sends the held expiry check, if any (I/O thread). */
    void SendExpiryCheck(Net &net);
    void RecordFailure(std::optional<ConnectionFailure> failure);
    void TokenExpiring(uint64_t generation);
    /** The session ended: forget lobbies (each reported deleted: lost with the connection) and messages. */
    void ClearSocialCaches();
    CacheRefs Refs() const { return CacheRefs{users_.Cache(), lobbies_.Cache(), messages_.Cache(), LobbyCalls()}; }
    std::weak_ptr<const voice::LobbyCallReader> LobbyCalls() const;
    /** Rich presence through the local platform client (the presence area's LocalActivityFn). */
    bool SetLocalActivity(const nlohmann::json &activity, std::function<void(ClientResult)> done);

    const ClientCreateOptions options_;
    const std::string apiBase_;
    const std::string webBase_;
    std::atomic<uint64_t> applicationId_{0};
    std::atomic<int32_t> httpTimeoutMs_{30000};
    std::atomic<ClientStatus> status_{ClientStatus::Disconnected};

    CallbackQueue queue_;
    Logger logger_{queue_};
    std::atomic<uint64_t> nextToken_{1};

    Operations operations_{queue_};
    EventSlot<void(ClientStatus, ClientError, int32_t)> statusChanged_{queue_};
    EventSlot<void()> tokenExpiration_{queue_};
    EventSlot<void()> missedEvents_{queue_};
    std::atomic<uint64_t> discardedMessages_{0};
    // Why the last connection ended with an error; written on the I/O thread before the status event is queued.
    mutable std::mutex failureMutex_;
    std::optional<ConnectionFailure> lastFailure_;

    // The area services, in dispatch order (users first: the others read the signed-in user). Each owns its cache,
    // its event slots and its reducer; dispatch_ routes every gateway dispatch to the ones that handle its type.
    // The services without a reducer (auth, guilds, invites, the local client) come after them.
    users::UsersService users_;
    lobbies::LobbiesService lobbies_{queue_, *this, users_.Cache(), [this] { return Refs(); }};
    messages::MessagesService messages_{queue_, *this, users_.Cache(), lobbies_.Cache(), [this] { return Refs(); }};
    relationships::RelationshipsService relationships_{queue_, *this, users_.Cache()};
    presence::PresenceService presence_{queue_,
                                        *this,
                                        users_,
                                        relationships_,
                                        [this] { return GetApplicationId(); },
                                        [this](const nlohmann::json &activity, std::function<void(ClientResult)> done) {
                                            return SetLocalActivity(activity, std::move(done));
                                        }};
    auth::AuthService auth_{queue_, *this};
    guilds::GuildsService guilds_{*this};
    invites::InvitesService invites_{*this, users_.Cache()};
    DispatchTable dispatch_;

    mutable std::mutex tokenMutex_;  // guards token_ and tokenGeneration_
    std::string token_;
    uint64_t tokenGeneration_ = 0;
    std::atomic<uint64_t> expiryNotifiedGeneration_{0};
    std::atomic<uint64_t> expiryPendingGeneration_{0};  // an expiry seen while disconnected, told at the next Connect

    std::atomic<bool> destroyRequested_{false};
    std::once_flag teardownOnce_;
    std::shared_ptr<SdkThreads> threads_;  // the I/O and voice threads, for SetThreadPriority and CPU pinning
    net::IoThread io_;
    std::unique_ptr<Net> net_;  // made with io_, destroyed on the I/O thread by Teardown; used only there
    std::unique_ptr<local_client::LocalClientService> localClient_;  // its connection runs on io_ (made once io_ is)
    std::shared_ptr<voice::VoiceService> voice_;                     // the voice area: calls, devices, the audio thread
};

}  // namespace svcpp::core
