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
#include "net/io_thread.hpp"
#include "runtime/callback_queue.hpp"

namespace svcpp::core {

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

    AuthorizationCodeVerifier CreateAuthorizationCodeVerifier();

    void RunCallbacks();
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

private:
    explicit Client(const ClientCreateOptions &options);
    void Teardown();
    void ReleaseRegistrations();

    const ClientCreateOptions options_;
    std::atomic<uint64_t> applicationId_{0};
    std::atomic<int32_t> httpTimeoutMs_{30000};
    std::atomic<ClientStatus> status_{ClientStatus::Disconnected};

    CallbackQueue queue_;
    Logger logger_{queue_};
    std::atomic<uint64_t> nextToken_{1};

    std::mutex slotsMutex_;  // guards the single-slot registrations
    SharedClientOnStatusChanged statusChanged_;

    std::atomic<bool> destroyRequested_{false};
    std::once_flag teardownOnce_;
    net::IoThread io_;
};

}  // namespace svcpp::core
