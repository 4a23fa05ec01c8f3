#include "local_client/local_client_service.hpp"

#include <nlohmann/json.hpp>

#include "rpc/rpc_service.hpp"
#include "rpc/this_process.hpp"
#include "runtime/abi_error.hpp"
#include "runtime/merge_required.hpp"

namespace svcpp::core::local_client {

using rpc::CommandOutcome;
using rpc::RpcService;

namespace {
using ResultOperation = Operation<void(const ClientResult &)>;

// Events of the local client the SDK subscribes to (AUTHORIZE_REQUEST is the local client's own, not published).
constexpr const char *kAuthorizeRequest = "AUTHORIZE_REQUEST";
constexpr const char *kActivityJoin = "ACTIVITY_JOIN";

/** A command's outcome as the ClientResult of the SDK call: RPCError carrying the local client's code. */
ClientResult ResultOf(const CommandOutcome &outcome) {
    if (outcome.ok) return ClientResult{};
    ClientResult result = FailureResult(ErrorType::RPCError, outcome.message);
    result.errorCode = outcome.code > 0 ? outcome.code : 0;
    // No local client (yet): running one, or waiting for the reconnect, may help.
    result.retryable = outcome.code == rpc::kNotConnected || outcome.code == rpc::kConnectionLost;
    return result;
}
}  // namespace

LocalClientService::LocalClientService(CallbackQueue &queue, ServiceHost &host, const net::ClientExecutor &io,
                                       std::string ipcPath, users::UsersService &users,
                                       messages::MessagesService &messages)
    : host_(host),
      users_(users),
      messages_(messages),
      authorizeRequest_(queue),
      join_(queue),
      joinWithApplication_(queue) {
    rpc::ServiceEvents events;
    events.authorizeRequest = [this] { authorizeRequest_.Post(); };
    events.activityJoin = [this](uint64_t applicationId, std::string secret) {
        join_.Post(secret);
        joinWithApplication_.Post(applicationId, secret);
    };
    rpc::ServiceOptions options;
    options.explicitPath = std::move(ipcPath);
    rpc_ = RpcService::Create(
        io, std::move(options), std::move(events),
        [this](LoggingSeverity severity, std::string line) { host_.Log().Log(severity, std::move(line)); });
}

LocalClientService::~LocalClientService() = default;

void LocalClientService::Start(uint64_t applicationId) { rpc_->Start(applicationId); }
void LocalClientService::Shutdown() { rpc_->Shutdown(); }

void LocalClientService::ReleaseRegistrations() {
    authorizeRequest_.Set({});
    join_.Set({});
    joinWithApplication_.Set({});
}

bool LocalClientService::SetLocalActivity(const nlohmann::json &activity, std::function<void(ClientResult)> done) {
    if (!rpc_->IsConnected()) return false;
    // `pid` names the game process (a local client shows the activity while that process runs); no `activity`
    // clears it.
    nlohmann::json args{{"pid", rpc::CurrentProcessId()}};
    if (!activity.is_null()) args["activity"] = activity;
    rpc_->Command("SET_ACTIVITY", std::move(args),
                  [done = std::move(done)](CommandOutcome outcome) { done(ResultOf(outcome)); });
    return true;
}

void LocalClientService::UpdateSubscriptions() {
    rpc_->SetSubscribed(kAuthorizeRequest, authorizeRequest_.IsSet());
    rpc_->SetSubscribed(kActivityJoin, join_.IsSet() || joinWithApplication_.IsSet());
}

void LocalClientService::RegisterAuthorizeRequestCallback(ClientAuthorizeRequestCallback &&cb) {
    authorizeRequest_.Set(std::move(cb));
    UpdateSubscriptions();
}

void LocalClientService::RemoveAuthorizeRequestCallback() {
    authorizeRequest_.Set({});
    UpdateSubscriptions();
}

void LocalClientService::SetActivityJoinCallback(ClientActivityJoinCallback &&cb) {
    join_.Set(std::move(cb));
    UpdateSubscriptions();
}

void LocalClientService::SetActivityJoinWithApplicationCallback(ClientActivityJoinWithApplicationCallback &&cb) {
    joinWithApplication_.Set(std::move(cb));
    UpdateSubscriptions();
}

void LocalClientService::OpenMessageInPlatform(uint64_t messageId, ClientProvisionalUserMergeRequiredCallback &&mergeCb,
                                               ClientOpenMessageInPlatformCallback &&cb) {
    const MergeRequired merge(host_.Ops(), std::move(mergeCb));  // fires, before cb, for a provisional user only
    auto op = ResultOperation::Begin(host_.Ops(), std::move(cb));
    auto fail = [&](ClientResult result) {
        merge.Skip();
        op->Fail(std::move(result));
    };
    if (messageId == 0) return fail(FailureResult(ErrorType::ValidationError, "messageId is 0"));
    if (auto user = users_.GetCurrentUserV2(); user && user->IsProvisional()) {
        merge.Fire();
        return op->Fail(
            FailureResult(ErrorType::ValidationError,
                          "a provisional account has no platform client: merge it into a full account first"));
    }
    auto message = messages_.Cache()->Find(messageId);
    if (!message || !messages_.CanOpenMessageInPlatform(messageId)) {
        return fail(
            FailureResult(ErrorType::ValidationError,
                          "the message is not cached or not synced to the platform (CanOpenMessageInPlatform)"));
    }
    const MessageRecord record = messages_.Cache()->Read(*message);
    merge.Skip();
    rpc_->Command("OPEN_MESSAGE",
                  {{"message_id", std::to_string(messageId)}, {"channel_id", std::to_string(record.channelId)}},
                  [op](CommandOutcome outcome) { op->Complete(ResultOf(outcome)); });
}

void LocalClientService::SetShowingChat(bool showingChat) {
    // Replayed on every connection: the local client learns the state the game is in, whenever it starts.
    rpc_->SetReplayed("showing-chat", "SET_SHOWING_CHAT", {{"showing", showingChat}});
}

void LocalClientService::OpenConnectedGamesSettingsInPlatform(ClientOpenConnectedGamesSettingsInPlatformCallback &&cb) {
    auto op = ResultOperation::Begin(host_.Ops(), std::move(cb));
    // As published: a provisional account has no such settings, and the call succeeds doing nothing.
    if (auto user = users_.GetCurrentUserV2(); user && user->IsProvisional()) return op->Complete(ClientResult{});
    rpc_->Command("OPEN_CONNECTED_GAMES_SETTINGS", nlohmann::json::object(),
                  [op](CommandOutcome outcome) { op->Complete(ResultOf(outcome)); });
}

void LocalClientService::RegisterLaunchCommand(uint64_t applicationId, std::string command) {
    if (applicationId == 0) throw AbiError(Errc::InvalidArgument, "applicationId must not be 0");
    if (command.empty()) {
        auto self = rpc::CurrentExecutableCommand();
        if (!self)
            throw AbiError(Errc::NotSupported,
                           "the path of the current executable is unknown on this system: pass the command");
        command = std::move(*self);
    }
    host_.Log().Log(LoggingSeverity::Info,
                    "launch command of application " + std::to_string(applicationId) + " registered");
    rpc_->SetReplayed("launch:" + std::to_string(applicationId), "REGISTER_LAUNCH_COMMAND",
                      {{"application_id", std::to_string(applicationId)}, {"command", command}});
}

void LocalClientService::RegisterLaunchSteamApplication(uint64_t applicationId, uint32_t steamAppId) {
    if (applicationId == 0) throw AbiError(Errc::InvalidArgument, "applicationId must not be 0");
    if (steamAppId == 0) throw AbiError(Errc::InvalidArgument, "steamAppId must not be 0");
    host_.Log().Log(LoggingSeverity::Info,
                    "Steam launch of application " + std::to_string(applicationId) + " registered");
    // The same slot as RegisterLaunchCommand: an application has one way to be started, the latest registered.
    rpc_->SetReplayed("launch:" + std::to_string(applicationId), "REGISTER_LAUNCH_COMMAND",
                      {{"application_id", std::to_string(applicationId)}, {"steam_app_id", steamAppId}});
}

}  // namespace svcpp::core::local_client
