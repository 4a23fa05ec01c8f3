#include "client/client.hpp"

#include "auth/pkce.hpp"
#include "auth/scopes.hpp"
#include "client/client_registry.hpp"
#include "runtime/abi_error.hpp"
#include "version.hpp"

namespace svcpp::core {

std::shared_ptr<Client> Client::Create(const ClientCreateOptions &options) {
    std::shared_ptr<Client> client(new Client(options));
    client->queue_.SetGlobalEdgeListener([] { clients::NotifyPending(); });
    clients::Add(client);
    return client;
}

Client::Client(const ClientCreateOptions &options) : options_(options), io_(options.cpuAffinityMask) {}

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
}

void Client::SetHttpRequestTimeout(int32_t milliseconds) {
    // The minimum (1 ms) is the IDL's `min`, enforced by the generated marshalling before this runs.
    httpTimeoutMs_.store(milliseconds);
    logger_.Log(LoggingSeverity::Info, "HTTP request timeout set to " + std::to_string(milliseconds) + " ms");
}

void Client::SetStatusChangedCallback(ClientOnStatusChanged &&cb) {
    auto next = Share(std::move(cb));
    SharedClientOnStatusChanged previous;  // released after the lock, on this thread
    std::lock_guard lock(slotsMutex_);
    previous = std::exchange(statusChanged_, std::move(next));
}

uint64_t Client::AddLogCallback(LoggingSeverity minSeverity, ClientLogCallback &&cb) {
    return logger_.Add(minSeverity, std::move(cb), nextToken_.fetch_add(1));
}

void Client::RemoveCallback(uint64_t token) {
    if (!logger_.Remove(token)) throw AbiError(Errc::InvalidArgument, "no registration has token " + std::to_string(token));
}

AuthorizationCodeVerifier Client::CreateAuthorizationCodeVerifier() { return pkce::CreateVerifier(); }

void Client::RunCallbacks() {
    if (queue_.IsPumpingOnAnotherThread()) throw AbiError(Errc::Busy, "another thread is running this client's callbacks");
    auto self = shared_from_this();  // a Drop inside a callback must not free us mid-pump
    queue_.Run([this] { return destroyRequested_.load(); });
    if (destroyRequested_.load()) std::call_once(teardownOnce_, [this] { Teardown(); });
}

void Client::SetCallbacksPendingHook(CallbacksPendingFn &&hook) {
    auto previous = queue_.SetHook(Share(std::move(hook)));
    // `previous` is released here, on the calling thread.
}

void Client::ReleaseRegistrations() {
    logger_.Clear();
    SetStatusChangedCallback({});
    queue_.SetHook(nullptr);
}

void Client::ResetCallbacks() {
    ReleaseRegistrations();
    for (auto &job : queue_.TakeAll()) {
        if (job.oneShot) job.run(JobMode::Abort);  // events are simply discarded
    }
}

void Client::Destroy() {
    if (queue_.IsPumpingOnAnotherThread()) throw AbiError(Errc::Busy, "another thread is running this client's callbacks");
    destroyRequested_.store(true);
    clients::Remove(this);
    // Inside one of our own callbacks: RunCallbacks finishes the teardown when that callback returns.
    if (queue_.IsPumpingOnThisThread()) return;
    std::call_once(teardownOnce_, [this] { Teardown(); });
}

void Client::Teardown() {
    destroyRequested_.store(true);
    io_.Stop();  // no completion can be produced after this
    for (auto &job : queue_.TakeAll()) {
        if (job.oneShot) job.run(JobMode::Deliver);  // completions that already have a result keep it
    }
    ReleaseRegistrations();
}

}  // namespace svcpp::core
