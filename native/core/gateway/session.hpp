// The gateway session: one user's WebSocket session with the platform's gateway
// (platform/PROTOCOL.md §20), with the client status machine of native/SEMANTICS.md "Connection".
//
//   Start() ─► Connecting ─► (Hello, Identify or Resume) ─► READY: Connected ─► Ready
//   (RESUMED takes the same path — Connected, the RESUMED dispatch, Ready — so every (re)connection looks alike)
//   drop / zombie / op 7 / resumable close / op 9 ─► Reconnecting ─(backoff)─► Connecting (Resume first)
//   terminal close (4004, 4010–4014) ─► Disconnected (UnexpectedClose, code), no retry
//   Stop() ─► Disconnecting ─► Disconnected
//
// Threading: create, use and destroy on the client's I/O thread; the event functions run there. The
// session knows nothing of the host: the client turns status changes and dispatches into queued callbacks.
// An event function may call Stop() or destroy the Session; nothing further is emitted then.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "generated/enums.hpp"
#include "net/websocket.hpp"

namespace svcpp::core::net {
class ClientExecutor;  // net/client_executor.hpp: the executor of one client's I/O objects
}

namespace svcpp::core::gateway {

struct SessionConfig {
    std::string url;    // gateway URL from GET /gateway, e.g. wss://127.0.0.1:8787/gateway (query is appended)
    std::string token;  // user access token; Identify sends "Bearer <token>"
    nlohmann::json properties = {{"os", "linux"}, {"browser", "svcpp"}, {"device", "svcpp"}};
    int32_t backoffInitialMs = 1000;  // reconnect delay doubles from here (with ±20 % jitter) ...
    int32_t backoffMaxMs = 60000;     // ... up to this
    /**
     * Consecutive failed connection attempts (no READY/RESUMED in between) before giving up: the Nth failure
     * ends in Disconnected (ConnectionFailed). Leaving a connection ourselves before READY/RESUMED (zombie,
     * op 7, op 9) counts as a failure too.
     */
    int32_t maxFailedAttempts = 6;
    /**
     * How long a connection may wait for READY/RESUMED after Identify/Resume. A server that never sends it (or a
     * READY that cannot be read) must not leave the host in Connecting forever: the attempt fails and is retried.
     */
    int32_t readyTimeoutMs = 15000;
};

/** Why the last connection attempt ended without READY/RESUMED (transport failures only; close codes aside). */
struct AttemptFailure {
    net::NetFailure kind = net::NetFailure::None;  // None: the server closed the connection (closeCode) or it broke
    std::string description;
    int32_t closeCode = 0;
};

struct SessionEvents {
    /** A status change: (status, error, errorDetail = close code or 0). */
    std::function<void(ClientStatus, ClientError, int32_t)> status;
    /**
     * Every dispatch (op 0) in sequence order, exactly once per sequence number, READY and RESUMED
     * included. READY arrives after the status Connected and before Ready, so the payload can be applied
     * before the host sees Ready.
     */
    std::function<void(const std::string &type, const nlohmann::json &data)> dispatch;
    /**
     * Optional: whether anyone reads the data of a dispatch of this type. When it answers false the frame's `d` is
     * checked but not built, and the dispatch is not delivered (its sequence number still counts). READY and
     * RESUMED are always read. Asked on the I/O thread, once per such frame: it must be cheap and must not call back.
     */
    std::function<bool(std::string_view type)> wantsData;
    /** Optional: a message from the server could not be read and was discarded (also logged at Warning). */
    std::function<void()> discarded;
};

using LogFn = std::function<void(LoggingSeverity, std::string)>;  // never given tokens

class Session {
  public:
    Session(const net::ClientExecutor &io, net::WebSocketFactory factory, SessionConfig config, SessionEvents events,
            LogFn log);
    ~Session();  // Abort(): no events after destruction
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    /** Disconnected → Connecting, always with a fresh Identify. A no-op in any other state. */
    void Start();
    /**
     * Close 1000 (ends the server session) → Disconnecting → Disconnected once the socket has closed (at once
     * during a reconnect wait). ConnectionCanceled when stopped while Connecting; a no-op when Disconnected or
     * Disconnecting.
     */
    void Stop();
    /** Replaces the token used by the next Identify / Resume. */
    void SetToken(std::string token);
    /** Sends a command (op 3 presence, later ops) when identified; false (not sent) otherwise. */
    bool Send(int op, nlohmann::json data);

    ClientStatus Status() const;
    /** The transport failure of the last attempt that failed; kind None when the last one did not fail that way. */
    const AttemptFailure &LastFailure() const;
    /** Gateway messages that could not be read (not JSON, no op, dispatch without a name): each is also logged. */
    uint64_t DiscardedMessages() const;
    const std::string &SessionId() const;
    int64_t LastSequence() const;

  private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

}  // namespace svcpp::core::gateway
