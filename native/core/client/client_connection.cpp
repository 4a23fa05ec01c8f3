// Client: the gateway connection (status machine, native/SEMANTICS.md "Connection"), the dispatches it applies to the
// caches, and token expiry.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "auth/requests.hpp"
#include "client/client_net.hpp"
#include "gateway/connection_failure.hpp"
#include "net/json_fields.hpp"
#include "net/results.hpp"
#include "voice/voice_service.hpp"

namespace svcpp::core {

namespace {

bool IsActive(ClientStatus s) { return s != ClientStatus::Disconnected && s != ClientStatus::Disconnecting; }

/** Expiry warnings go out this long before the token dies (or at once when it has less left). */
constexpr int64_t kExpiryWarningSeconds = 60;

/**
 * How long UpdateToken's expiry check (GET /oauth2/@me) waits for a Connect before it goes anyway; once a connection
 * is being made it waits for Ready (or the attempt's end). The check is not urgent (its warning comes a minute before
 * the token ends) and a connection made just after UpdateToken is: on the local platform, which serves one request at
 * a time, the check was served first and delayed the gateway discovery and IDENTIFY of nearly every connect-to-Ready
 * (docs/connect-to-ready.md). A token the platform rejects is reported by IDENTIFY (close code 4004) anyway. Two
 * seconds: a Connect issued as soon as UpdateToken completes still comes first on a loaded machine.
 */
constexpr auto kExpiryCheckGrace = std::chrono::seconds(2);

}  // namespace

// ---- Connect / Disconnect ------------------------------------------------------------------------------

void Client::Connect() {
    OnIo([this](Net &net) {
        const ClientStatus status = GetStatus();
        if (status == ClientStatus::Disconnecting) {
            net.connectAfterDisconnect = true;  // "waits for a running disconnect first"
            return;
        }
        if (status != ClientStatus::Disconnected) return;  // already connecting or connected
        RecordFailure(std::nullopt);
        net.hadSession = false;
        const std::string token = CurrentToken();
        if (token.empty()) {
            logger_.Log(LoggingSeverity::Error, std::string("Connect: ") + kNoTokenMessage);
            RecordFailure(gateway::NoTokenFailure());
            SetStatus(ClientStatus::Disconnected, ClientError::ConnectionFailed, 0);
            return;
        }
        if (const uint64_t pending = expiryPendingGeneration_.exchange(0)) {
            std::lock_guard lock(tokenMutex_);
            if (pending == tokenGeneration_) tokenExpiration_.Post();
        }

        // HttpWait: discover the gateway URL before opening the socket.
        SetStatus(ClientStatus::HttpWait, ClientError::None, 0);
        const uint64_t attempt = ++net.connectAttempt;
        net::HttpRequest request;
        request.url = apiBase_ + "/gateway";
        request.route = "GET /gateway";
        net.rest.Send(std::move(request), [this, &net, attempt](net::HttpResponse response) {
            if (attempt != net.connectAttempt) return;  // cancelled by Disconnect
            std::string url;
            ClientResult result =
                net::ReadJson(response, url, [](const nlohmann::json &body) { return wire::String(body, "url"); });
            if (url.empty()) {
                const std::string why = result.error.empty() ? std::string("no url") : result.error;
                logger_.Log(LoggingSeverity::Error, "gateway discovery failed: " + why);
                RecordFailure(gateway::DiscoveryFailure(response, why));
                SetStatus(ClientStatus::Disconnected, ClientError::ConnectionFailed, response.status);
                return;
            }
            StartGateway(net, std::move(url));
        });
    });
}

void Client::StartGateway(Net &net, std::string url) {
    gateway::SessionConfig config;
    config.url = std::move(url);
    config.token = CurrentToken();
    gateway::SessionEvents events;
    events.status = [this, &net](ClientStatus status, ClientError error, int32_t detail) {
        // Recorded before the status is queued, so a host reading it from its status callback sees this failure.
        if (status == ClientStatus::Disconnected && error != ClientError::None &&
            error != ClientError::ConnectionCanceled) {
            RecordFailure(gateway::SessionFailure(error, detail, net.session->LastFailure()));
        }
        OnGatewayStatus(status, error, detail);
    };
    events.dispatch = [this, &net](const std::string &type, const nlohmann::json &data) {
        // Every READY is a new session; one after an earlier READY means the old session could not be resumed.
        const bool ready = type == "READY";
        const bool gap = ready && std::exchange(net.hadSession, true);
        OnDispatch(type, data);
        if (ready && !gap) messages_.CatchUp().Reset();  // a new Connect owes nothing from before it
        if (!gap) return;
        logger_.Log(LoggingSeverity::Warning, "reconnected with a new session: events of the gap were not delivered");
        missedEvents_.Post();
        messages_.CatchUpLobbyMessages();
    };
    events.discarded = [this] { discardedMessages_.fetch_add(1); };
    // A dispatch no area handles is not worth a DOM of its data (the table is read-only once the client exists).
    events.wantsData = [this](std::string_view type) { return dispatch_.Handles(type); };
    auto log = [this](LoggingSeverity severity, std::string line) { logger_.Log(severity, std::move(line)); };
    net.session = std::make_unique<gateway::Session>(net.io, net.websockets, std::move(config), std::move(events),
                                                     std::move(log));
    net.session->Start();
}

void Client::OnGatewayStatus(ClientStatus status, ClientError error, int32_t detail) {
    // The session decides whether it resumes before it reports anything: a connection it will resume is Reconnecting
    // (the caches stay, RESUMED replays what was missed), and Disconnected comes only from its end (Finish), after
    // which nothing is resumed and the next Connect identifies afresh. So the ended session's caches are emptied here,
    // before Disconnected is queued: a host reading them in its Disconnected handler, or once disconnect() resolves,
    // sees none (native/SEMANTICS.md "Connection").
    if (status == ClientStatus::Disconnected) {
        users_.Cache()->Clear();
        ClearSocialCaches();
    }
    SetStatus(status, error, detail);
    if (status != ClientStatus::Disconnected) return;
    // 4004: the platform rejected the token (revoked, expired, banned): the host should get a new one.
    if (error == ClientError::UnexpectedClose && detail == 4004) {
        uint64_t generation;
        {
            std::lock_guard lock(tokenMutex_);
            generation = tokenGeneration_;
        }
        TokenExpiring(generation);
    }
    // The session is done; destroy it outside its own event handler.
    OnIo([this](Net &net) {
        if (GetStatus() != ClientStatus::Disconnected) return;
        voice_->OnGatewayGone();  // calls end with the session that carried them
        net.session.reset();
        if (std::exchange(net.connectAfterDisconnect, false)) Connect();
    });
}

void Client::RecordFailure(std::optional<ConnectionFailure> failure) {
    std::lock_guard lock(failureMutex_);
    lastFailure_ = std::move(failure);
}

std::optional<ConnectionFailure> Client::GetLastConnectionFailure() const {
    std::lock_guard lock(failureMutex_);
    return lastFailure_;
}

void Client::Disconnect() {
    OnIo([this](Net &net) {
        net.connectAfterDisconnect = false;
        if (GetStatus() == ClientStatus::HttpWait) {  // still discovering the gateway: drop that answer
            ++net.connectAttempt;
            SetStatus(ClientStatus::Disconnecting, ClientError::None, 0);
            SetStatus(ClientStatus::Disconnected, ClientError::ConnectionCanceled, 0);
            return;
        }
        if (net.session) net.session->Stop();
    });
}

// ---- Dispatches -----------------------------------------------------------------------------------------

void Client::OnDispatch(const std::string &type, const nlohmann::json &data) {
    // The caches are updated before the events are queued (native/SEMANTICS.md "Pump and hook").
    dispatch_.Dispatch(type, data);
    if (type == "READY")
        logger_.Log(LoggingSeverity::Info, "ready as user " + std::to_string(users_.Cache()->CurrentUserId()));
}

// ---- Token expiry ---------------------------------------------------------------------------------------

void Client::ScheduleTokenExpiry(uint64_t generation, std::string token) {
    net::HttpRequest request = auth::TokenInfoRequest(apiBase_, token);
    OnIo([this, generation, request = std::move(request)](Net &net) mutable {
        net.expiryCheck = Net::ExpiryCheck{generation, std::move(request)};  // replaces an older token's, unsent
        if (GetStatus() == ClientStatus::Ready) return SendExpiryCheck(net);
        // Otherwise a connection is under way, or may start at once: the check goes when the status settles
        // (SetStatus), or at the end of the grace if it is settled by then.
        net.expiryCheckTimer.expires_after(kExpiryCheckGrace);
        net.expiryCheckTimer.async_wait([this, &net](const boost::system::error_code &ec) {
            if (!ec && IsSettled(GetStatus())) SendExpiryCheck(net);
        });
    });
}

void Client::SendExpiryCheck(Net &net) {
    if (!net.expiryCheck) return;
    net.expiryCheckTimer.cancel();
    Net::ExpiryCheck check = std::move(*std::exchange(net.expiryCheck, std::nullopt));
    const uint64_t generation = check.generation;
    net.rest.Send(std::move(check.request), [this, &net, generation](net::HttpResponse response) {
        if (response.status == 401) return TokenExpiring(generation);  // rejected outright
        auto seconds = auth::SecondsUntilExpiry(response);
        if (!seconds) return;
        // At most a century: the timer counts nanoseconds (about 292 years); a later expiry is "never" here.
        constexpr int64_t kCenturySeconds = int64_t{100} * 365 * 24 * 3600;
        net.expiryTimer.expires_after(
            std::chrono::seconds(std::clamp<int64_t>(*seconds - kExpiryWarningSeconds, 0, kCenturySeconds)));
        net.expiryTimer.async_wait([this, generation](const boost::system::error_code &ec) {
            if (!ec) TokenExpiring(generation);
        });
    });
}

void Client::TokenExpiring(uint64_t generation) {
    {
        std::lock_guard lock(tokenMutex_);
        if (generation != tokenGeneration_) return;  // a newer token replaced this one
    }
    // Once per token given to UpdateToken; while disconnected it waits for the next Connect.
    if (expiryNotifiedGeneration_.exchange(generation) == generation) return;
    logger_.Log(LoggingSeverity::Warning, "the access token expires soon or was rejected");
    if (IsActive(GetStatus()))
        tokenExpiration_.Post();
    else
        expiryPendingGeneration_.store(generation);
}

// ---- Users ----------------------------------------------------------------------------------------------

}  // namespace svcpp::core
