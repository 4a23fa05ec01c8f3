// RpcService: the SDK's side of the local client (native/SEMANTICS.md "Local RPC"), an area service of the Client.
// It runs on the client's I/O thread: finds the local client on its socket paths (socket_paths.hpp), keeps one
// connection open through RpcProtocol, and when there is none (no local client yet, or it restarted) tries again
// with backoff — re-subscribing and replaying what the game registered once READY arrives again.
//
// Every public method may be called from any thread; the work is posted onto the I/O thread. Command completions
// and the event sinks run on the I/O thread (the Client queues them to the host like every other callback).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "log/logger.hpp"
#include "rpc/rpc_protocol.hpp"
#include "rpc/socket_paths.hpp"

namespace svcpp::core::net {
class ClientExecutor;  // net/client_executor.hpp: the executor of one client's I/O objects
}

namespace svcpp::core::rpc {

/** What the service reports (on the I/O thread). */
struct ServiceEvents {
    std::function<void()> authorizeRequest;
    std::function<void(uint64_t applicationId, std::string secret)> activityJoin;
};

struct ServiceOptions {
    std::string explicitPath;  // ClientCreateOptions.IpcPath; empty = SVCPP_IPC_PATH, else the published paths
    EnvLookup env = ProcessEnvironment();
    int32_t initialRetryMs = 500;
    int32_t maxRetryMs = 10'000;
};

class RpcService : public std::enable_shared_from_this<RpcService> {
  public:
    using LogFn = std::function<void(LoggingSeverity, std::string)>;

    static std::shared_ptr<RpcService> Create(const net::ClientExecutor &io, ServiceOptions options,
                                              ServiceEvents events, LogFn log);
    ~RpcService();

    /** Connects for this application (a different one: the connection is opened afresh); 0 stops looking. */
    void Start(uint64_t applicationId);
    void SetSubscribed(std::string evt, bool wanted);
    void SetReplayed(std::string key, std::string cmd, nlohmann::json args);
    /** Sends a command; `done` runs on the I/O thread (at once with kNotConnected when no local client is READY). */
    void Command(std::string cmd, nlohmann::json args, CommandDone done);
    /** I/O thread only: closes the connection and stops retrying (Client teardown). */
    void Shutdown();
    /** A READY connection exists (read from any thread; a hint, it may change right after). */
    bool IsConnected() const { return connected_.load(); }

  private:
    struct Impl;
    RpcService() = default;
    // I/O thread: the connection's life (rpc_service.cpp).
    void TryConnect(std::size_t index);
    void Read(uint64_t epoch);
    void Write(std::string bytes);
    void WriteFront(uint64_t epoch);
    void Dropped(const std::string &reason);
    void CloseConnection();
    void ScheduleRetry();

    std::unique_ptr<Impl> impl_;
    std::atomic<bool> connected_{false};
};

}  // namespace svcpp::core::rpc
