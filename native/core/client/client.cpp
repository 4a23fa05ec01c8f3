#include "client/client.hpp"

#include "auth/scopes.hpp"
#include "client/client_net.hpp"
#include "client/client_registry.hpp"
#include "local_client/local_client_service.hpp"
#include "runtime/abi_error.hpp"
#include "version.hpp"
#include "voice/voice_service.hpp"

namespace svcpp::core {

namespace {
// The local platform's default address (`npx svcpp-platform` listens there).
constexpr const char *kDefaultWebBase = "http://127.0.0.1:8787";

std::string WithoutTrailingSlash(std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url;
}
}  // namespace

std::shared_ptr<Client> Client::Create(const ClientCreateOptions &options) {
    std::shared_ptr<Client> client(new Client(options));
    client->queue_.SetGlobalEdgeListener([] { clients::NotifyPending(); });
    clients::Add(client);
    return client;
}

Client::Client(const ClientCreateOptions &options)
    : options_(options),
      apiBase_(options.apiBase.empty() ? std::string(kDefaultWebBase) + "/api/v10"
                                       : WithoutTrailingSlash(options.apiBase)),
      webBase_(options.webBase.empty() ? std::string(kDefaultWebBase) : WithoutTrailingSlash(options.webBase)),
      users_(queue_, webBase_ + "/cdn"),
      threads_(std::make_shared<SdkThreads>(
          options.cpuAffinityMask,
          [this](std::string line) { logger_.Log(LoggingSeverity::Warning, std::move(line)); })),
      // A client pinned to CPUs (CpuAffinityMask) gets an I/O thread of its own, pinned like its other threads; the
      // others share the process's pool (net/io_thread.hpp, native/SEMANTICS.md "Threads").
      io_(threads_, options.cpuAffinityMask.has_value()),
      net_(std::make_unique<Net>(
          io_.Executor(), net::TlsOptions{options.caFile}, [this] { return httpTimeoutMs_.load(); },
          [this](std::string line) { logger_.Log(LoggingSeverity::Verbose, std::move(line)); })) {
    // One table for every dispatch type, filled in the order the areas must see READY (users first).
    users_.Register(dispatch_);
    messages_.Register(dispatch_);
    lobbies_.Register(dispatch_);
    relationships_.Register(dispatch_);
    presence_.Register(dispatch_);
    ServiceHost &host = *this;  // the base is private: converted here, not inside make_unique
    localClient_ = std::make_unique<local_client::LocalClientService>(queue_, host, io_.Executor(), options_.ipcPath,
                                                                      users_, messages_);
    StartVoice();
    voice_->Register(dispatch_);
}

Client::~Client() {
    // Normally Destroy() ran (Svcpp_Client_Drop); this covers a client dropped by static teardown.
    std::call_once(teardownOnce_, [this] { Teardown(); });
}

std::string Client::GetDefaultCommunicationScopes() { return scopes::kCommunication; }
std::string Client::GetDefaultPresenceScopes() { return scopes::kPresence; }
int32_t Client::GetVersionMajor() { return version::Major(); }
int32_t Client::GetVersionMinor() { return version::Minor(); }
int32_t Client::GetVersionPatch() { return version::Patch(); }
std::string Client::GetVersionHash() { return version::Hash(); }

void Client::SetApplicationId(uint64_t applicationId) {
    applicationId_.store(applicationId);
    logger_.Log(LoggingSeverity::Info, "application id set to " + std::to_string(applicationId));
    // The local client's handshake names the application: a new id means a new connection.
    localClient_->Start(applicationId);
}

void Client::SetHttpRequestTimeout(int32_t milliseconds) {
    // The minimum (1 ms) is the IDL's `min`, enforced by the generated marshalling before this runs.
    httpTimeoutMs_.store(milliseconds);
    logger_.Log(LoggingSeverity::Info, "HTTP request timeout set to " + std::to_string(milliseconds) + " ms");
}

void Client::SetStatusChangedCallback(ClientOnStatusChanged &&cb) { statusChanged_.Set(std::move(cb)); }

void Client::SetStatus(ClientStatus status, ClientError error, int32_t detail) {
    status_.store(status);
    logger_.Log(LoggingSeverity::Info, std::string("status ") + ToString(status) +
                                           (error == ClientError::None ? ""
                                                                       : std::string(" (") + ToString(error) + ", " +
                                                                             std::to_string(detail) + ")"));
    statusChanged_.Post(status, error, detail);
    // Every transition runs on the I/O thread; one that ends a connection attempt sends the expiry check it held back.
    if (IsSettled(status)) OnIo([this](Net &net) { SendExpiryCheck(net); });
}

bool Client::SetLogDir(std::string path, LoggingSeverity minSeverity) { return logger_.SetFile(path, minSeverity); }

void Client::OnIo(std::function<void(Net &)> fn) {
    // Teardown closes the client's gate on the I/O thread before it takes the network half apart: a posted job
    // either runs while the client is whole or never runs.
    io_.Post([this, fn = std::move(fn)] {
        if (!destroyRequested_.load() && net_) fn(*net_);
    });
}

void Client::Rest(net::HttpRequest request, net::HttpDone done) {
    OnIo([request = std::move(request), done = std::move(done)](Net &net) mutable {
        net.rest.Send(std::move(request), std::move(done));
    });
}

void Client::Post(std::function<void()> fn) {
    OnIo([fn = std::move(fn)](Net &) { fn(); });
}

const net::ClientExecutor &Client::IoExecutor() { return io_.Executor(); }

void Client::RunAfter(std::chrono::milliseconds delay, std::function<void()> fn) {
    OnIo([this, delay, fn = std::move(fn)](Net &net) mutable {
        auto timer = std::make_shared<boost::asio::steady_timer>(net.io, delay);
        // The gate is asked again when it fires: the client may be going down by then.
        timer->async_wait([this, timer, fn = std::move(fn)](const boost::system::error_code &ec) {
            if (!ec && !destroyRequested_.load()) fn();
        });
    });
}

void Client::StartVoice() {
    voice::VoiceHost host;
    host.post = [this](std::function<void()> fn) { Post(std::move(fn)); };
    host.io = &io_.Executor();
    host.websockets = net_->websockets;
    // Main-gateway op 4 (Voice State Update), sent through the client's gateway session.
    host.sendGatewayOp4 = [this](const nlohmann::json &data) {
        return net_ && net_->session && net_->session->Send(4, data);
    };
    host.gatewaySecure = [this] { return apiBase_.rfind("https:", 0) == 0; };
    host.ready = [this] { return GetStatus() == ClientStatus::Ready; };
    host.currentUserId = [this] { return users_.Cache()->CurrentUserId(); };
    host.isLobbyMember = [this](uint64_t lobbyId) { return lobbies_.Cache()->Contains(lobbyId); };
    host.threads = threads_;
    host.nextToken = [this] { return nextToken_.fetch_add(1); };
    voice_ = std::make_shared<voice::VoiceService>(queue_, operations_, std::move(host));
}

std::weak_ptr<const voice::LobbyCallReader> Client::LobbyCalls() const {
    return std::shared_ptr<const voice::LobbyCallReader>(voice_);
}

bool Client::SetLocalActivity(const nlohmann::json &activity, std::function<void(ClientResult)> done) {
    return localClient_->SetLocalActivity(activity, std::move(done));
}

void Client::ClearSocialCaches() {
    lobbies_.Clear();
    messages_.Cache()->Clear();
}

// Client, Voice and Network threads all live in threads_ (the I/O thread is not a voice thread, but it is the
// one place every SDK thread registers). The value range is a contract (InvalidArgument); the OS's answer is not.
void Client::SetThreadPriority(ClientThread thread, int32_t priority) {
    if (priority < SdkThreads::kMinPriority || priority > SdkThreads::kMaxPriority) {
        throw AbiError(Errc::InvalidArgument, "priority: must be a nice value within -20..19 (lower runs first)");
    }
    threads_->SetPriority(thread, priority);
}

uint64_t Client::AddLogCallback(LoggingSeverity minSeverity, ClientLogCallback &&cb) {
    return logger_.Add(minSeverity, std::move(cb), nextToken_.fetch_add(1));
}

void Client::RemoveCallback(uint64_t token) {
    if (!logger_.Remove(token) && !voice_->RemoveVoiceLogCallback(token))
        throw AbiError(Errc::InvalidArgument, "no registration has token " + std::to_string(token));
}

void Client::RunCallbacks() { RunCallbacksUpTo(UINT32_MAX); }

void Client::RunCallbacksUpTo(uint32_t maxCallbacks) {
    if (queue_.IsPumpingOnAnotherThread())
        throw AbiError(Errc::Busy, "another thread is running this client's callbacks");
    auto self = shared_from_this();  // a Drop inside a callback must not free us mid-pump
    const size_t limit = maxCallbacks == UINT32_MAX ? SIZE_MAX : maxCallbacks;
    queue_.Run([this] { return destroyRequested_.load(); }, limit);
    if (destroyRequested_.load()) std::call_once(teardownOnce_, [this] { Teardown(); });
}

void Client::RunCallbacksRecording(uint32_t maxCallbacks, PumpRecorder *recorder,
                                   const std::function<bool()> &stopBefore) {
    if (queue_.IsPumpingOnAnotherThread())
        throw AbiError(Errc::Busy, "another thread is running this client's callbacks");
    auto self = shared_from_this();  // a Drop inside a callback must not free us mid-pump
    queue_.Run([this, &stopBefore] { return destroyRequested_.load() || stopBefore(); }, maxCallbacks, recorder);
    if (destroyRequested_.load()) std::call_once(teardownOnce_, [this] { Teardown(); });
}

void Client::SetCallbacksPendingHook(CallbacksPendingFn &&hook) {
    auto previous = queue_.SetHook(Share(std::move(hook)));
    // `previous` is released here, on the calling thread.
}

void Client::ReleaseRegistrations() {
    logger_.Clear();
    statusChanged_.Set({});
    auth_.ReleaseRegistrations();
    tokenExpiration_.Set({});
    users_.ReleaseRegistrations();
    messages_.ReleaseRegistrations();
    lobbies_.ReleaseRegistrations();
    relationships_.ReleaseRegistrations();
    presence_.ReleaseRegistrations();
    voice_->ReleaseRegistrations();
    localClient_->ReleaseRegistrations();
    queue_.SetHook(nullptr);
    if (!destroyRequested_.load()) localClient_->UpdateSubscriptions();
}

void Client::ResetCallbacks() {
    operations_.FailAll(FailureResult(ErrorType::Aborted, "callbacks were reset"));
    ReleaseRegistrations();
    for (auto &job : queue_.TakeAll()) {
        if (job.oneShot) job.run(JobMode::Abort);  // events are simply discarded
    }
}

void Client::Destroy() {
    if (queue_.IsPumpingOnAnotherThread())
        throw AbiError(Errc::Busy, "another thread is running this client's callbacks");
    destroyRequested_.store(true);
    clients::Remove(this);
    // Inside one of our own callbacks: RunCallbacks finishes the teardown when that callback returns.
    if (queue_.IsPumpingOnThisThread()) return;
    std::call_once(teardownOnce_, [this] { Teardown(); });
}

void Client::Teardown() {
    destroyRequested_.store(true);
    // In-flight operations end with ClientDestroyed first, so what the shutdown below makes of them
    // ("shut down" network errors) can never reach the host.
    operations_.FailAll(FailureResult(ErrorType::ClientDestroyed, "the client was destroyed"));
    // On the I/O thread, with this client's gate closed (no handler of it runs again): what uses the network stops,
    // and the sockets and timers it owned are destroyed there, on the thread that owns them. Other clients may
    // share the thread; they go on. Stop waits for this, then leaves the thread (net/io_thread.hpp).
    io_.Stop([this] {
        voice_->ShutdownOnIo();  // calls stop before the gateway session they use goes
        if (net_) {
            net_->session.reset();
            localClient_->Shutdown();
            auth_.ShutdownOnIo();
            net_->expiryTimer.cancel();
            net_->expiryCheckTimer.cancel();
            net_->rest.Shutdown();
            net_->http.Shutdown();
        }
        net_.reset();
    });
    voice_->Shutdown();  // the audio thread ends; devices close (a WAV output is complete)
    for (auto &job : queue_.TakeAll()) {
        if (job.oneShot) job.run(JobMode::Deliver);  // completions that already have a result keep it
    }
    ReleaseRegistrations();
    queue_.SetWakeupFd(-1);  // the host's end reads end-of-file: nothing will be queued any more
}

// Every call that needs the gateway session checks this one gate, so they all fail the same way.
std::optional<ClientResult> Client::NotReady() const {
    if (GetStatus() != ClientStatus::Ready)
        return FailureResult(ErrorType::ClientNotReady, "the client is not Ready: call Connect and wait for Ready");
    if (CurrentToken().empty()) return FailureResult(ErrorType::ValidationError, kNoTokenMessage);
    return std::nullopt;
}

}  // namespace svcpp::core
