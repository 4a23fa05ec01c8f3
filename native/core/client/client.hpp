// core::Client: the root object of the SDK. Owns the I/O thread, the callback queue, the logger and every
// host registration. Method names follow the specification (svcpp::Client::…); the generated C marshalling
// calls them after validating and converting the C arguments.
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

namespace rpc {
class RpcService;
}
namespace voice {
class VoiceService;
}

class Client : public std::enable_shared_from_this<Client> {
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

    uint64_t GetApplicationId() const { return applicationId_.load(); }
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

    // Authentication (client_auth.cpp).
    AuthorizationCodeVerifier CreateAuthorizationCodeVerifier();
    void Authorize(AuthorizationArgs args, ClientAuthorizationCallback &&cb);
    void AbortAuthorize();
    void SetAuthorizeUrlCallback(ClientAuthorizeUrlCallback &&cb);
    void HandleAuthorizeRedirect(std::string url);
    void GetToken(uint64_t applicationId, std::string code, std::string codeVerifier, std::string redirectUri,
                  ClientTokenExchangeCallback &&cb);
    void GetProvisionalToken(uint64_t applicationId, AuthenticationExternalAuthType type, std::string externalAuthToken,
                             ClientTokenExchangeCallback &&cb);
    void GetTokenFromProvisionalMerge(uint64_t applicationId, std::string code, std::string codeVerifier,
                                      std::string redirectUri, AuthenticationExternalAuthType type,
                                      std::string externalAuthToken, ClientTokenExchangeCallback &&cb);
    void RefreshToken(uint64_t applicationId, std::string refreshToken, ClientTokenExchangeCallback &&cb);
    void RevokeToken(uint64_t applicationId, std::string token, ClientRevokeTokenCallback &&cb);
    void ExchangeChildToken(std::string parentApplicationToken, uint64_t childApplicationId,
                            ClientExchangeChildTokenCallback &&cb);
    void UnmergeIntoProvisionalAccount(uint64_t applicationId, AuthenticationExternalAuthType type,
                                       std::string externalAuthToken, ClientUnmergeIntoProvisionalAccountCallback &&cb);
    void UpdateProvisionalAccountDisplayName(std::string name, ClientUpdateProvisionalAccountDisplayNameCallback &&cb);
    void UpdateToken(AuthorizationTokenType tokenType, std::string token, ClientUpdateTokenCallback &&cb);
    void FetchCurrentUser(AuthorizationTokenType tokenType, std::string token, ClientFetchCurrentUserCallback &&cb);
    bool IsAuthenticated() const;
    void SetTokenExpirationCallback(ClientTokenExpirationCallback &&cb) { tokenExpiration_.Set(std::move(cb)); }
    // Delivered by the local client (client_rpc.cpp).
    void RegisterAuthorizeRequestCallback(ClientAuthorizeRequestCallback &&cb);
    void RemoveAuthorizeRequestCallback();

    // Users (client_connection.cpp).
    std::optional<UserHandle> GetCurrentUserV2() const;
    std::optional<UserHandle> GetCurrentUser() const { return GetCurrentUserV2(); }
    std::optional<UserHandle> GetUser(uint64_t userId) const;
    /** The user cache, read in place (a lookup snapshot reads a user under its lock, without making a handle). */
    const UserCache &CachedUsers() const { return *users_.Cache(); }
    void SetUserUpdatedCallback(ClientUserUpdatedCallback &&cb) { users_.Updated().Set(std::move(cb)); }

    // Guilds (client_guilds.cpp).
    void GetUserGuilds(ClientGetUserGuildsCallback &&cb);
    void GetGuildChannels(uint64_t guildId, ClientGetGuildChannelsCallback &&cb);

    // ---- Messages (client_messages.cpp) ----
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
    void SetMessageCreatedCallback(ClientMessageCreatedCallback &&cb) { messages_.Created().Set(std::move(cb)); }
    void SetMessageUpdatedCallback(ClientMessageUpdatedCallback &&cb) { messages_.Updated().Set(std::move(cb)); }
    void SetMessageDeletedCallback(ClientMessageDeletedCallback &&cb) { messages_.Deleted().Set(std::move(cb)); }

    // ---- Lobbies and linked channels (client_lobbies.cpp) ----
    void CreateOrJoinLobby(std::string secret, ClientCreateOrJoinLobbyCallback &&cb);
    void CreateOrJoinLobbyWithMetadata(std::string secret, Properties lobbyMetadata, Properties memberMetadata,
                                       ClientCreateOrJoinLobbyCallback &&cb);
    void LeaveLobby(uint64_t lobbyId, ClientLeaveLobbyCallback &&cb);
    std::optional<LobbyHandle> GetLobbyHandle(uint64_t lobbyId) const;
    std::vector<uint64_t> GetLobbyIds() const { return lobbies_.Cache()->Ids(); }
    void SetLobbyCreatedCallback(ClientLobbyCreatedCallback &&cb) { lobbies_.Created().Set(std::move(cb)); }
    void SetLobbyDeletedCallback(ClientLobbyDeletedCallback &&cb) { lobbies_.Deleted().Set(std::move(cb)); }
    void SetLobbyUpdatedCallback(ClientLobbyUpdatedCallback &&cb) { lobbies_.Updated().Set(std::move(cb)); }
    void SetLobbyMemberAddedCallback(ClientLobbyMemberAddedCallback &&cb) { lobbies_.MemberAdded().Set(std::move(cb)); }
    void SetLobbyMemberRemovedCallback(ClientLobbyMemberRemovedCallback &&cb) {
        lobbies_.MemberRemoved().Set(std::move(cb));
    }
    void SetLobbyMemberUpdatedCallback(ClientLobbyMemberUpdatedCallback &&cb) {
        lobbies_.MemberUpdated().Set(std::move(cb));
    }
    void LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId, ClientLinkOrUnlinkChannelCallback &&cb);
    void UnlinkChannelFromLobby(uint64_t lobbyId, ClientLinkOrUnlinkChannelCallback &&cb);
    void JoinLinkedLobbyGuild(uint64_t lobbyId, ClientProvisionalUserMergeRequiredCallback &&mergeCb,
                              ClientJoinLinkedLobbyGuildCallback &&cb);

    // ---- Relationships (client_relationships.cpp) ----
    std::optional<RelationshipHandle> GetRelationshipHandle(uint64_t userId) const;
    std::vector<RelationshipHandle> GetRelationships() const;
    std::vector<RelationshipHandle> GetRelationshipsByGroup(RelationshipGroupType groupType) const;
    std::vector<UserHandle> SearchFriendsByUsername(std::string searchStr) const;
    void SendPlatformFriendRequest(std::string username, ClientSendFriendRequestCallback &&cb);
    void SendPlatformFriendRequestById(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void SendGameFriendRequest(std::string username, ClientUpdateRelationshipCallback &&cb);
    void SendGameFriendRequestById(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void AcceptPlatformFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void AcceptGameFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void RejectPlatformFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void RejectGameFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void CancelPlatformFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void CancelGameFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void RemovePlatformAndGameFriend(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void RemoveGameFriend(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void BlockUser(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void UnblockUser(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void SetRelationshipCreatedCallback(ClientRelationshipCreatedCallback &&cb) {
        relationships_.Created().Set(std::move(cb));
    }
    void SetRelationshipDeletedCallback(ClientRelationshipDeletedCallback &&cb) {
        relationships_.Deleted().Set(std::move(cb));
    }
    void SetRelationshipGroupsUpdatedCallback(ClientRelationshipGroupsUpdatedCallback &&cb) {
        relationships_.GroupsUpdated().Set(std::move(cb));
    }

    // ---- Presence (client_presence.cpp) and game invites (client_invites.cpp) ----
    void UpdateRichPresence(Activity activity, ClientUpdateRichPresenceCallback &&cb);
    void ClearRichPresence();
    void SetOnlineStatus(StatusType status, ClientUpdateStatusCallback &&cb);
    void SendActivityInvite(uint64_t userId, std::string content, ClientSendActivityInviteCallback &&cb);
    void SendActivityJoinRequest(uint64_t userId, ClientSendActivityInviteCallback &&cb);
    void SendActivityJoinRequestReply(ActivityInvite invite, ClientSendActivityInviteCallback &&cb);
    void AcceptActivityInvite(ActivityInvite invite, ClientAcceptActivityInviteCallback &&cb);
    void SetActivityInviteCreatedCallback(ClientActivityInviteCallback &&cb) {
        presence_.InviteCreated().Set(std::move(cb));
    }
    void SetActivityInviteUpdatedCallback(ClientActivityInviteCallback &&cb) {
        presence_.InviteUpdated().Set(std::move(cb));
    }

    // ---- The local platform client over local RPC (client_rpc.cpp, the service in rpc/) ----
    void SetActivityJoinCallback(ClientActivityJoinCallback &&cb);
    void SetActivityJoinWithApplicationCallback(ClientActivityJoinWithApplicationCallback &&cb);
    void OpenMessageInPlatform(uint64_t messageId, ClientProvisionalUserMergeRequiredCallback &&mergeCb,
                               ClientOpenMessageInPlatformCallback &&cb);
    void SetShowingChat(bool showingChat);
    void OpenConnectedGamesSettingsInPlatform(ClientOpenConnectedGamesSettingsInPlatformCallback &&cb);
    void RegisterLaunchCommand(uint64_t applicationId, std::string command);
    void RegisterLaunchSteamApplication(uint64_t applicationId, uint32_t steamAppId);

    // ---- Voice calls and audio devices: the voice area (voice/voice_service.hpp), forwarded (client_voice.cpp) ----
    std::optional<Call> StartCall(uint64_t lobbyId);
    std::optional<Call> StartCallWithAudioCallbacks(uint64_t lobbyId, ClientUserAudioReceivedCallback &&receivedCb,
                                                    ClientUserAudioCapturedCallback &&capturedCb);
    std::optional<Call> GetCall(uint64_t channelId) const;
    std::vector<Call> GetCalls() const;
    void EndCall(uint64_t channelId, ClientEndCallCallback &&cb);
    void EndCalls(ClientEndCallsCallback &&cb);
    void SetVoiceParticipantChangedCallback(ClientVoiceParticipantChangedCallback &&cb);
    bool GetSelfMuteAll() const;
    void SetSelfMuteAll(bool mute);
    bool GetSelfDeafAll() const;
    void SetSelfDeafAll(bool deaf);
    void GetInputDevices(ClientGetInputDevicesCallback &&cb);
    void GetOutputDevices(ClientGetOutputDevicesCallback &&cb);
    void GetCurrentInputDevice(ClientGetCurrentInputDeviceCallback &&cb);
    void GetCurrentOutputDevice(ClientGetCurrentOutputDeviceCallback &&cb);
    void SetInputDevice(std::string deviceId, ClientSetInputDeviceCallback &&cb);
    void SetOutputDevice(std::string deviceId, ClientSetOutputDeviceCallback &&cb);
    void SetDeviceChangeCallback(ClientDeviceChangeCallback &&cb);
    float GetInputVolume() const;
    void SetInputVolume(float inputVolume);
    float GetOutputVolume() const;
    void SetOutputVolume(float outputVolume);
    void SetNoAudioInputThreshold(float dBFSThreshold);
    void SetNoAudioInputCallback(ClientNoAudioInputCallback &&cb);
    void SetAutomaticGainControl(bool on);
    void SetEchoCancellation(bool on);
    void SetNoiseSuppression(bool on);
    void SetNoiseCancellation(bool on);
    void SetOpusHardwareCoding(bool encode, bool decode);
    void SetAecDump(bool on);
    bool SetVoiceLogDir(std::string path, LoggingSeverity minSeverity);
    uint64_t AddVoiceLogCallback(LoggingSeverity minSeverity, ClientLogCallback &&cb);
    void SetEngineManagedAudioSession(bool isEngineManaged);
    bool ShowAudioRoutePicker();
    bool SetSpeakerMode(bool speakerMode);
    /** A Linux nice value (-20..19) for the SDK's threads of a kind (threads/sdk_threads.hpp); refusals are logged. */
    void SetThreadPriority(ClientThread thread, int32_t priority);
    voice::VoiceService &Voice() { return *voice_; }

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

    Logger &Log() { return logger_; }
    CallbackQueue &Queue() { return queue_; }

    /** Base URL of the HTTP API (ClientCreateOptions::ApiBase or the local platform's). */
    const std::string &ApiBase() const { return apiBase_; }
    const std::string &WebBase() const { return webBase_; }

  private:
    struct Net;  // the I/O-thread half: HTTP, gateway session, authorize listener, timers (client_net.hpp)

    explicit Client(const ClientCreateOptions &options);
    void StartVoice();  // client_voice.cpp: makes voice_ (needs net_)
    void Teardown();
    void ReleaseRegistrations();

    /** Records a status (any thread) and queues the status event. */
    void SetStatus(ClientStatus status, ClientError error, int32_t detail);
    /** The application id of an auth call: the argument, else SetApplicationId's; 0 when neither is set. */
    uint64_t AppIdFor(uint64_t applicationId) const { return applicationId ? applicationId : GetApplicationId(); }
    std::string CurrentToken() const;
    /** Runs fn on the I/O thread with the network half (dropped when the client is being torn down). */
    void OnIo(std::function<void(Net &)> fn);
    /** Sends a REST request on the I/O thread; done runs there (not at all once the client is torn down). */
    void Rest(net::HttpRequest request, net::HttpDone done);
    /**
     * A token request whose answer completes a TokenExchangeCallback operation. `build` makes the request for
     * the effective application id (AppIdFor); without one the operation fails with ValidationError.
     */
    void RequestTokens(uint64_t applicationId, bool oauth, const std::function<net::HttpRequest(uint64_t appId)> &build,
                       ClientTokenExchangeCallback &&cb);

    // gateway (client_connection.cpp)
    void StartGateway(Net &net, std::string url);
    void OnGatewayStatus(ClientStatus status, ClientError error, int32_t detail);
    /** One gateway dispatch: the caches are updated (and their events queued) by the areas that handle its type. */
    void OnDispatch(const std::string &type, const nlohmann::json &data);
    /** The checks and the request of one relationship change by user id (client_relationships.cpp). */
    void ChangeRelationship(uint64_t userId, relationships::Action action, bool platformAxis,
                            ClientUpdateRelationshipCallback &&cb);
    void RequestByName(std::string username, bool platformAxis, Callback<void(const ClientResult &)> &&cb);
    /** POST /users/{id}/activity-invites of type `type` (client_invites.cpp). */
    void PostActivityInvite(uint64_t userId, ActivityActionTypes type, std::string content,
                            ClientSendActivityInviteCallback &&cb);
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
    /** The ClientNotReady / no-token failure of a call that needs a Ready session, or nullopt when it may go on. */
    std::optional<ClientResult> NotReady() const;
    /** After a READY that ended a gap: fetches and delivers the lobby messages of the gap (client_messages.cpp). */
    void CatchUpLobbyMessages();
    /** One page of a lobby's catch-up; a failed page is tried again after a second, up to a few times. */
    void FetchLobbyCatchUpPage(messages::LobbyCatchUp::Fetch fetch, int failures);
    /** Sends a message (lobby or DM) and completes cb with its id; the answer is cached like a dispatch. */
    void SendMessage(bool lobby, uint64_t targetId, std::string content, std::optional<Properties> metadata,
                     ClientSendUserMessageCallback &&cb);
    // local client (client_rpc.cpp)
    void StartLocalClient();
    /** Subscribes over local RPC to the events whose slots are set (after a slot changed). */
    void UpdateLocalSubscriptions();
    /**
     * Rich presence without a gateway session: SET_ACTIVITY over local RPC (`activity` null clears it). False, and
     * nothing sent, when no local client is connected; else `done` runs on the I/O thread with the outcome.
     */
    bool SetLocalActivity(nlohmann::json activity, std::function<void(ClientResult)> done);
    // authorize (client_auth.cpp)
    std::string CompleteAuthorize(Net &net, const std::string &target);

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
    EventSlot<void(std::string_view)> authorizeUrl_{queue_};
    EventSlot<void()> tokenExpiration_{queue_};
    EventSlot<void()> authorizeRequest_{queue_};
    EventSlot<void()> missedEvents_{queue_};
    std::atomic<uint64_t> discardedMessages_{0};
    // Why the last connection ended with an error; written on the I/O thread before the status event is queued.
    mutable std::mutex failureMutex_;
    std::optional<ConnectionFailure> lastFailure_;

    // The area services, in dispatch order (users first: the others read the signed-in user). Each owns its cache,
    // its event slots and its reducer; dispatch_ routes every gateway dispatch to the ones that handle its type.
    users::UsersService users_;
    messages::MessagesService messages_{queue_, users_.Cache()};
    lobbies::LobbiesService lobbies_{queue_, users_.Cache()};
    relationships::RelationshipsService relationships_{queue_, users_.Cache()};
    presence::PresenceService presence_{queue_, users_, relationships_, [this] { return GetApplicationId(); }};
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
    std::shared_ptr<rpc::RpcService> localClient_;  // runs on io_; its events go through the slots above
    std::shared_ptr<voice::VoiceService> voice_;    // the voice area: calls, devices, the audio thread
};

}  // namespace svcpp::core
