// Client: what the game does through the local platform client (native/SEMANTICS.md "Local RPC"). The connection,
// its retries and the protocol belong to rpc::RpcService; this file only turns the SDK calls into its commands and
// subscriptions, and its events and answers into the host's callbacks.
#include <nlohmann/json.hpp>

#include "client/client_net.hpp"
#include "rpc/this_process.hpp"
#include "rpc/rpc_service.hpp"
#include "runtime/abi_error.hpp"

namespace svcpp::core {

namespace {
using ResultOperation = Operation<void(const ClientResult &)>;

// Events of the local client the SDK subscribes to (AUTHORIZE_REQUEST is the local client's own, not published).
constexpr const char *kAuthorizeRequest = "AUTHORIZE_REQUEST";
constexpr const char *kActivityJoin = "ACTIVITY_JOIN";

/** A command's outcome as the ClientResult of the SDK call: RPCError carrying the local client's code. */
ClientResult ResultOf(const rpc::CommandOutcome &outcome) {
    if (outcome.ok) return ClientResult{};
    ClientResult result = FailureResult(ErrorType::RPCError, outcome.message);
    result.errorCode = outcome.code > 0 ? outcome.code : 0;
    // No local client (yet): running one, or waiting for the reconnect, may help.
    result.retryable = outcome.code == rpc::kNotConnected || outcome.code == rpc::kConnectionLost;
    return result;
}
}  // namespace

void Client::StartLocalClient() {
    rpc::ServiceEvents events;
    events.authorizeRequest = [this] { authorizeRequest_.Post(); };
    events.activityJoin = [this](uint64_t applicationId, std::string secret) {
        presence_.Join().Post(secret);
        presence_.JoinWithApplication().Post(applicationId, secret);
    };
    rpc::ServiceOptions options;
    options.explicitPath = options_.ipcPath;
    localClient_ = rpc::RpcService::Create(
        io_.Executor(), std::move(options), std::move(events),
        [this](LoggingSeverity severity, std::string line) { logger_.Log(severity, std::move(line)); });
}

bool Client::SetLocalActivity(nlohmann::json activity, std::function<void(ClientResult)> done) {
    if (!localClient_->IsConnected()) return false;
    // `pid` names the game process (a local client shows the activity while that process runs); no `activity`
    // clears it.
    nlohmann::json args{{"pid", rpc::CurrentProcessId()}};
    if (!activity.is_null()) args["activity"] = std::move(activity);
    localClient_->Command("SET_ACTIVITY", std::move(args),
                          [done = std::move(done)](rpc::CommandOutcome outcome) { done(ResultOf(outcome)); });
    return true;
}

void Client::UpdateLocalSubscriptions() {
    localClient_->SetSubscribed(kAuthorizeRequest, authorizeRequest_.IsSet());
    localClient_->SetSubscribed(kActivityJoin, presence_.Join().IsSet() || presence_.JoinWithApplication().IsSet());
}

void Client::RegisterAuthorizeRequestCallback(ClientAuthorizeRequestCallback &&cb) {
    authorizeRequest_.Set(std::move(cb));
    UpdateLocalSubscriptions();
}

void Client::RemoveAuthorizeRequestCallback() {
    authorizeRequest_.Set({});
    UpdateLocalSubscriptions();
}

void Client::SetActivityJoinCallback(ClientActivityJoinCallback &&cb) {
    presence_.Join().Set(std::move(cb));
    UpdateLocalSubscriptions();
}

void Client::SetActivityJoinWithApplicationCallback(ClientActivityJoinWithApplicationCallback &&cb) {
    presence_.JoinWithApplication().Set(std::move(cb));
    UpdateLocalSubscriptions();
}

void Client::OpenMessageInPlatform(uint64_t messageId, ClientProvisionalUserMergeRequiredCallback &&mergeCb,
                                   ClientOpenMessageInPlatformCallback &&cb) {
    // The merge callback rides on an operation of its own (as in JoinLinkedLobbyGuild), so its user data is released
    // on a host thread; it fires, before cb, only for a provisional user.
    ResultOperation::Cb merge{[fn = std::move(mergeCb.fn)](const ClientResult &r) {
                                  if (r.type == ErrorType::None && fn) fn();
                              },
                              std::move(mergeCb.owner)};
    auto mergeOp = ResultOperation::Begin(operations_, std::move(merge));
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    auto fail = [&](ClientResult result) {
        mergeOp->Fail(FailureResult(ErrorType::Aborted, "no merge needed"));
        op->Fail(std::move(result));
    };
    if (messageId == 0) return fail(FailureResult(ErrorType::ValidationError, "messageId is 0"));
    if (auto user = GetCurrentUserV2(); user && user->IsProvisional()) {
        mergeOp->Complete(ClientResult{});
        return op->Fail(
            FailureResult(ErrorType::ValidationError,
                          "a provisional account has no platform client: merge it into a full account first"));
    }
    auto message = messages_.Cache()->Find(messageId);
    if (!message || !CanOpenMessageInPlatform(messageId)) {
        return fail(
            FailureResult(ErrorType::ValidationError,
                          "the message is not cached or not synced to the platform (CanOpenMessageInPlatform)"));
    }
    const MessageRecord record = messages_.Cache()->Read(*message);
    mergeOp->Fail(FailureResult(ErrorType::Aborted, "no merge needed"));
    localClient_->Command("OPEN_MESSAGE",
                          {{"message_id", std::to_string(messageId)}, {"channel_id", std::to_string(record.channelId)}},
                          [op](rpc::CommandOutcome outcome) { op->Complete(ResultOf(outcome)); });
}

void Client::SetShowingChat(bool showingChat) {
    // Replayed on every connection: the local client learns the state the game is in, whenever it starts.
    localClient_->SetReplayed("showing-chat", "SET_SHOWING_CHAT", {{"showing", showingChat}});
}

void Client::OpenConnectedGamesSettingsInPlatform(ClientOpenConnectedGamesSettingsInPlatformCallback &&cb) {
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    // As published: a provisional account has no such settings, and the call succeeds doing nothing.
    if (auto user = GetCurrentUserV2(); user && user->IsProvisional()) return op->Complete(ClientResult{});
    localClient_->Command("OPEN_CONNECTED_GAMES_SETTINGS", nlohmann::json::object(),
                          [op](rpc::CommandOutcome outcome) { op->Complete(ResultOf(outcome)); });
}

void Client::RegisterLaunchCommand(uint64_t applicationId, std::string command) {
    if (applicationId == 0) throw AbiError(Errc::InvalidArgument, "applicationId must not be 0");
    if (command.empty()) {
        auto self = rpc::CurrentExecutableCommand();
        if (!self)
            throw AbiError(Errc::NotSupported,
                           "the path of the current executable is unknown on this system: pass the command");
        command = std::move(*self);
    }
    logger_.Log(LoggingSeverity::Info,
                "launch command of application " + std::to_string(applicationId) + " registered");
    localClient_->SetReplayed("launch:" + std::to_string(applicationId), "REGISTER_LAUNCH_COMMAND",
                              {{"application_id", std::to_string(applicationId)}, {"command", command}});
}

void Client::RegisterLaunchSteamApplication(uint64_t applicationId, uint32_t steamAppId) {
    if (applicationId == 0) throw AbiError(Errc::InvalidArgument, "applicationId must not be 0");
    if (steamAppId == 0) throw AbiError(Errc::InvalidArgument, "steamAppId must not be 0");
    logger_.Log(LoggingSeverity::Info, "Steam launch of application " + std::to_string(applicationId) + " registered");
    // The same slot as RegisterLaunchCommand: an application has one way to be started, the latest registered.
    localClient_->SetReplayed("launch:" + std::to_string(applicationId), "REGISTER_LAUNCH_COMMAND",
                              {{"application_id", std::to_string(applicationId)}, {"steam_app_id", steamAppId}});
}

}  // namespace svcpp::core
