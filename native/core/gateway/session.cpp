#include "gateway/session.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "gateway/backoff.hpp"
#include "gateway/close_codes.hpp"
#include "gateway/frame_reader.hpp"
#include "net/client_executor.hpp"

namespace svcpp::core::gateway {

namespace {

namespace asio = boost::asio;
using nlohmann::json;
using std::chrono::milliseconds;

enum Op : int {
    kDispatch = 0,
    kHeartbeat = 1,
    kIdentify = 2,
    kResume = 6,
    kReconnect = 7,
    kInvalidSession = 9,
    kHello = 10,
    kHeartbeatAck = 11,
};

// Both the configured URL and READY's resume_gateway_url come without a query (platform/PROTOCOL.md §20.1).
constexpr const char *kQuery = "?v=10&encoding=json";

// A close frame's code 1000 ends the server session (platform/PROTOCOL.md §20.6): only Stop() uses it.
constexpr uint16_t kNormalClose = 1000;

// Host-supplied strings (properties, Send() data) may hold invalid UTF-8: replace it rather than throw.
std::string Serialize(const json &value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

struct Session::Impl {
    Impl(const net::ClientExecutor &io, net::WebSocketFactory factory, SessionConfig config, SessionEvents events,
         LogFn log)
        : io(io),
          factory(std::move(factory)),
          config(std::move(config)),
          events(std::move(events)),
          log(std::move(log)),
          backoff(this->config.backoffInitialMs, this->config.backoffMaxMs),
          heartbeatTimer(io),
          reconnectTimer(io),
          readyTimer(io),
          reader([wants = this->events.wantsData](std::string_view type) {
              // READY and RESUMED are read by the session itself (OnIdentified), whoever else wants them.
              return type == "READY" || type == "RESUMED" || !wants || wants(type);
          }) {}

    enum class Leave { Abort, Close };

    net::ClientExecutor io;
    net::WebSocketFactory factory;
    SessionConfig config;
    SessionEvents events;
    LogFn log;
    std::weak_ptr<Impl> weakSelf;  // what socket handlers and timers hold: they must not keep the session alive
    std::mt19937 rng{std::random_device{}()};
    Backoff backoff;
    asio::steady_timer heartbeatTimer;
    asio::steady_timer reconnectTimer;
    asio::steady_timer readyTimer;  // armed by Identify/Resume, cancelled by READY/RESUMED
    AttemptFailure lastFailure;
    uint64_t discarded = 0;
    // One reader and one frame for every message: their buffers are kept from frame to frame. A second frame can
    // only arrive while one is being handled if an event function nests a message (none does): it gets its own.
    FrameReader reader;
    Frame frame;
    bool readingFrame = false;

    ClientStatus status = ClientStatus::Disconnected;
    // Bumped by every status change, so code that emitted an event can tell whether the handler moved the session
    // on (Stop, Start, destruction) and must not continue with stale assumptions.
    uint64_t transitions = 0;
    bool destroyed = false;
    ClientError stopError = ClientError::None;  // reported with Disconnected once the stopping socket has closed
    int32_t failedAttempts = 0;                 // consecutive connections that ended before READY/RESUMED

    // The session: survives reconnects, forgotten on a fresh Identify.
    std::string sessionId;
    std::string resumeUrl;
    int64_t seq = 0;  // highest sequence delivered, 0 = none (sequences start at 1)

    // The current connection. `epoch` changes whenever the connection is replaced or abandoned, so handlers of an
    // old socket and timers armed for it recognise themselves as stale.
    uint64_t epoch = 0;
    std::shared_ptr<net::WebSocket> socket;
    bool opened = false;
    bool helloSeen = false;
    bool identified = false;  // READY or RESUMED received on this connection
    bool ackPending = false;  // a heartbeat was sent and not acknowledged yet
    milliseconds heartbeatInterval{0};
    // Sockets abandoned for a reconnect, kept until their `closed` so their close handshake can finish.
    std::map<uint64_t, std::shared_ptr<net::WebSocket>> closing;

    void Log(LoggingSeverity severity, std::string message) const {
        if (log) log(severity, "gateway: " + std::move(message));
    }

    /** Emits a status; false when the handler changed the session meanwhile (the caller must then stop). */
    bool SetStatus(ClientStatus next, ClientError error = ClientError::None, int32_t detail = 0) {
        status = next;
        const uint64_t mark = ++transitions;
        std::string line = std::string("status ") + ToString(next);
        if (error != ClientError::None) line += std::string(", error ") + ToString(error);
        if (detail != 0) line += ", detail " + std::to_string(detail);
        Log(LoggingSeverity::Verbose, std::move(line));  // the client logs the status at Info
        if (events.status) events.status(next, error, detail);
        return Unchanged(mark);
    }

    bool Unchanged(uint64_t mark) const { return !destroyed && transitions == mark; }

    /** True for handlers of the live connection while it is in use (not once Stop() is closing it). */
    bool Current(uint64_t e) const { return !destroyed && e == epoch && status != ClientStatus::Disconnecting; }

    // A socket must not be destroyed inside one of its own handlers, which may be on the stack right now.
    void ReleaseLater(std::shared_ptr<net::WebSocket> old) {
        asio::post(io, [old = std::move(old)] {});
    }

    void ForgetSession() {
        sessionId.clear();
        resumeUrl.clear();
        seq = 0;
    }

    void Start() {
        if (status != ClientStatus::Disconnected) {
            Log(LoggingSeverity::Verbose, "Start() ignored: already started");
            return;
        }
        // Every Start begins a new session: Disconnected means the previous one is over or was given up.
        ForgetSession();
        failedAttempts = 0;
        backoff.Reset();
        if (!SetStatus(ClientStatus::Connecting)) return;
        Connect();
    }

    void Stop() {
        if (status == ClientStatus::Disconnected || status == ClientStatus::Disconnecting) return;
        // Only an attempt that never got READY/RESUMED counts as canceled (native/SEMANTICS.md "Connection").
        stopError = status == ClientStatus::Connecting ? ClientError::ConnectionCanceled : ClientError::None;
        CancelTimers();
        const auto current = socket;
        if (!SetStatus(ClientStatus::Disconnecting)) return;
        if (!current) {  // waiting for a reconnect: nothing to close
            Finish(stopError, 0);
            return;
        }
        // Disconnected follows once `closed` fires (the WebSocket bounds the wait to 2 s).
        current->Close(kNormalClose, "Client disconnect");
    }

    bool Send(int op, json data) {
        if (!identified || !socket || (status != ClientStatus::Connected && status != ClientStatus::Ready))
            return false;
        SendJson({{"op", op}, {"d", std::move(data)}});
        return true;
    }

    void CancelTimers() {
        heartbeatTimer.cancel();
        reconnectTimer.cancel();
        readyTimer.cancel();
    }

    void Shutdown() {
        destroyed = true;
        CancelTimers();
        ++epoch;
        std::vector<std::shared_ptr<net::WebSocket>> all;
        if (socket) all.push_back(std::move(socket));
        for (auto &entry : closing) all.push_back(std::move(entry.second));
        closing.clear();
        for (auto &old : all) {
            old->Abort();  // its `closed` finds `destroyed` set and does nothing
            ReleaseLater(std::move(old));
        }
    }

    void Connect() {
        const uint64_t e = ++epoch;
        opened = helloSeen = identified = ackPending = false;
        lastFailure = {};
        const bool resuming = !sessionId.empty();
        const std::string url = (resuming && !resumeUrl.empty() ? resumeUrl : config.url) + kQuery;
        Log(LoggingSeverity::Info, "connecting to " + url + (resuming ? " to resume" : " to identify"));
        net::WebSocketHandlers handlers;
        handlers.open = [w = weakSelf, e] {
            if (auto self = w.lock()) self->OnOpen(e);
        };
        handlers.message = [w = weakSelf, e](std::string text) {
            if (auto self = w.lock()) self->OnMessage(e, text);
        };
        handlers.closed = [w = weakSelf, e](int code, std::string reason) {
            if (auto self = w.lock()) self->OnClosed(e, code, reason);
        };
        handlers.failed = [w = weakSelf, e](net::NetFailure kind) {
            if (auto self = w.lock(); self && e == self->epoch) self->lastFailure.kind = kind;
        };
        auto opening = factory(url, std::move(handlers));
        if (e != epoch) return;  // the factory reported `closed` synchronously and it was handled
        if (!opening) {          // no socket at all: a failed attempt like any other
            asio::post(io, [w = weakSelf, e] {
                if (auto self = w.lock()) self->OnClosed(e, 0, "no WebSocket");
            });
            return;
        }
        socket = std::move(opening);
    }

    void OnOpen(uint64_t e) {
        if (!Current(e)) return;
        opened = true;
        Log(LoggingSeverity::Verbose, "socket open");
    }

    void OnMessage(uint64_t e, const std::string &text) {
        if (!Current(e)) return;
        Frame nested;
        Frame &message = readingFrame ? nested : frame;
        const bool outer = !std::exchange(readingFrame, true);
        HandleFrame(text, message);
        if (outer) readingFrame = false;
    }

    void HandleFrame(const std::string &text, Frame &message) {
        if (!reader.Read(text, message) || !message.op) {
            return Discard("a malformed frame (" + std::to_string(text.size()) + " bytes)");
        }
        const json &d = message.data;  // null when absent
        const int op = static_cast<int>(*message.op);
        switch (op) {
            case kDispatch: return OnDispatch(message);
            case kHeartbeat: Log(LoggingSeverity::Verbose, "server asked for a heartbeat"); return SendHeartbeat();
            case kReconnect:
                Log(LoggingSeverity::Info, "server asked to reconnect (op 7)");
                return Abandon(Leave::Close, backoff.Next(rng));
            case kInvalidSession: return OnInvalidSession(d.is_boolean() && d.get<bool>());
            case kHello: return OnHello(d);
            case kHeartbeatAck: ackPending = false; return;
            default: Log(LoggingSeverity::Verbose, "ignoring op " + std::to_string(op));
        }
    }

    /** Nothing the server sends is dropped without a trace: a Warning line and the DiscardedMessages count. */
    void Discard(const std::string &what) {
        ++discarded;
        if (events.discarded) events.discarded();
        Log(LoggingSeverity::Warning, "discarded " + what + " (" + std::to_string(discarded) + " so far)");
    }

    void OnHello(const json &d) {
        const auto interval = d.find("heartbeat_interval");
        if (helloSeen || interval == d.end() || !interval->is_number() || interval->get<double>() <= 0) {
            Log(LoggingSeverity::Warning, helloSeen ? "ignoring a second Hello" : "ignoring a malformed Hello");
            return;
        }
        helloSeen = true;
        heartbeatInterval = milliseconds(static_cast<int64_t>(interval->get<double>()));
        Log(LoggingSeverity::Verbose, "hello: heartbeat every " + std::to_string(heartbeatInterval.count()) + " ms");
        // The first beat is jittered (published rule: after interval × random [0, 1)) so that clients reconnecting
        // together do not beat together.
        std::uniform_real_distribution<double> jitter(0.0, 1.0);
        ScheduleHeartbeat(
            milliseconds(static_cast<int64_t>(static_cast<double>(heartbeatInterval.count()) * jitter(rng))));
        if (sessionId.empty()) {
            Log(LoggingSeverity::Info, "sending Identify");
            SendJson(
                {{"op", kIdentify}, {"d", {{"token", "Bearer " + config.token}, {"properties", config.properties}}}});
        } else {
            Log(LoggingSeverity::Info, "sending Resume, session " + sessionId + ", seq " + std::to_string(seq));
            SendJson({{"op", kResume},
                      {"d", {{"token", "Bearer " + config.token}, {"session_id", sessionId}, {"seq", seq}}}});
        }
        ArmReadyTimeout();
    }

    void ArmReadyTimeout() {
        readyTimer.expires_after(milliseconds(config.readyTimeoutMs));
        readyTimer.async_wait([w = weakSelf, e = epoch](const boost::system::error_code &ec) {
            if (ec) return;
            auto self = w.lock();
            if (!self || !self->Current(e) || self->identified) return;
            self->Log(LoggingSeverity::Warning, "no READY/RESUMED within " +
                                                    std::to_string(self->config.readyTimeoutMs) +
                                                    " ms: giving up on this connection");
            self->lastFailure = {net::NetFailure::TimedOut,
                                 "no READY within " + std::to_string(self->config.readyTimeoutMs) + " ms"};
            self->Abandon(Leave::Close, self->backoff.Next(self->rng));
        });
    }

    void ScheduleHeartbeat(milliseconds delay) {
        heartbeatTimer.expires_after(delay);
        heartbeatTimer.async_wait([w = weakSelf, e = epoch](const boost::system::error_code &ec) {
            if (ec) return;
            if (auto self = w.lock(); self && self->Current(e)) self->OnHeartbeatDue();
        });
    }

    void OnHeartbeatDue() {
        if (ackPending) {
            // A close frame would not reach a dead peer; dropping keeps the session resumable
            // (platform/PROTOCOL.md §20.5).
            Log(LoggingSeverity::Warning, "no heartbeat ACK since the last heartbeat: zombie connection");
            return Abandon(Leave::Abort, backoff.Next(rng));
        }
        SendHeartbeat();
        ScheduleHeartbeat(heartbeatInterval);
    }

    void SendHeartbeat() {
        ackPending = true;
        SendJson({{"op", kHeartbeat}, {"d", seq > 0 ? json(seq) : json(nullptr)}});
    }

    void SendJson(const json &payload) { socket->Send(Serialize(payload)); }

    void OnDispatch(const Frame &message) {
        if (!message.hasType) return Discard("a dispatch without an event name");
        const std::string &type = message.type;  // the frame outlives the dispatch: no copy
        if (message.seq) {
            const int64_t n = *message.seq;
            // A resume replays only what was missed, but a sequence must never reach the host twice.
            if (n <= seq) {
                Log(LoggingSeverity::Verbose, "dropping " + type + " seq " + std::to_string(n) + ": already delivered");
                return;
            }
            seq = n;
        }
        if (type == "READY" || type == "RESUMED") return OnIdentified(type, message.data);
        // A type nobody handles had its data checked, not built (FrameReader): it is not delivered either.
        if (message.dataSkipped) return;
        if (events.dispatch) events.dispatch(type, message.data);
    }

    // READY and RESUMED take the same path: Connected, the dispatch, Ready. The host sees one sequence for every
    // (re)connection, and READY's payload is applied before Ready as the header promises.
    void OnIdentified(const std::string &type, const json &d) {
        if (type == "READY") {
            const auto id = d.find("session_id");
            const auto url = d.find("resume_gateway_url");
            sessionId = id != d.end() && id->is_string() ? id->get<std::string>() : "";
            resumeUrl = url != d.end() && url->is_string() ? url->get<std::string>() : "";
            Log(LoggingSeverity::Info, "READY, session " + sessionId);
        } else {
            Log(LoggingSeverity::Info, "RESUMED at seq " + std::to_string(seq));
        }
        identified = true;
        readyTimer.cancel();
        lastFailure = {};
        failedAttempts = 0;
        backoff.Reset();
        if (!SetStatus(ClientStatus::Connected)) return;
        const uint64_t mark = transitions;
        if (events.dispatch) events.dispatch(type, d);
        if (!Unchanged(mark)) return;
        SetStatus(ClientStatus::Ready);
    }

    void OnInvalidSession(bool resumable) {
        Log(LoggingSeverity::Info,
            std::string("invalid session (op 9), ") + (resumable ? "resuming" : "identifying again"));
        if (resumable) return Abandon(Leave::Close, backoff.Next(rng));
        ForgetSession();
        Abandon(Leave::Close, backoff.InvalidSessionDelay(rng));
    }

    /** Leaves the current connection on our initiative (zombie, op 7, op 9) and reconnects after delayMs. */
    void Abandon(Leave how, int32_t delayMs) {
        const bool wasIdentified = identified;
        const auto old = std::move(socket);
        heartbeatTimer.cancel();
        readyTimer.cancel();
        closing[epoch++] = old;
        identified = false;
        if (how == Leave::Abort) {
            old->Abort();
        } else {
            old->Close(kResumableClientClose, "Reconnecting");
        }
        AfterConnection(wasIdentified, 0, delayMs);
    }

    void OnClosed(uint64_t e, int code, const std::string &reason) {
        if (destroyed) return;
        if (e != epoch) {  // an abandoned socket finished closing
            if (const auto it = closing.find(e); it != closing.end()) {
                ReleaseLater(std::move(it->second));
                closing.erase(it);
            }
            return;
        }
        Log(LoggingSeverity::Info,
            "socket closed, code " + std::to_string(code) + (reason.empty() ? "" : ": " + reason));
        const bool wasIdentified = identified;
        heartbeatTimer.cancel();
        readyTimer.cancel();
        ReleaseLater(std::move(socket));
        ++epoch;
        identified = false;
        if (status == ClientStatus::Disconnecting) return Finish(stopError, 0);
        switch (ClassifyClose(code)) {
            case CloseAction::Terminal:
                Log(LoggingSeverity::Warning, "close code " + std::to_string(code) + " is terminal: not reconnecting");
                return Finish(ClientError::UnexpectedClose, code);
            case CloseAction::NewSession:
                Log(LoggingSeverity::Info, "the server ended the session: identifying again");
                ForgetSession();
                break;
            case CloseAction::Resume: break;
        }
        if (!wasIdentified && lastFailure.description.empty()) lastFailure.description = reason;
        if (!wasIdentified && code != 0) lastFailure.closeCode = code;
        // A certificate that does not verify or a URL we cannot speak will not get better by retrying.
        if (!net::IsTransient(lastFailure.kind)) {
            Log(LoggingSeverity::Warning, "not retrying: " + reason);
            return Finish(ClientError::ConnectionFailed, 0);
        }
        // A resume URL that cannot even be reached may be stale: the next attempt uses the configured one.
        if (!opened) resumeUrl.clear();
        AfterConnection(wasIdentified, code, backoff.Next(rng));
    }

    /** A connection ended and the session continues: Reconnecting and a timer, or giving up. */
    void AfterConnection(bool wasIdentified, int32_t closeCode, int32_t delayMs) {
        if (!wasIdentified && ++failedAttempts >= config.maxFailedAttempts) {
            Log(LoggingSeverity::Warning,
                "giving up after " + std::to_string(failedAttempts) + " failed connection attempts");
            return Finish(ClientError::ConnectionFailed, 0);
        }
        Log(LoggingSeverity::Info,
            "reconnecting in " + std::to_string(delayMs) + " ms" + (sessionId.empty() ? " (identify)" : " (resume)"));
        reconnectTimer.expires_after(milliseconds(delayMs));
        reconnectTimer.async_wait([w = weakSelf, e = epoch](const boost::system::error_code &ec) {
            if (ec) return;
            auto self = w.lock();
            if (!self || self->destroyed || self->epoch != e || self->status != ClientStatus::Reconnecting) return;
            if (self->SetStatus(ClientStatus::Connecting)) self->Connect();
        });
        SetStatus(ClientStatus::Reconnecting, ClientError::None, closeCode);
    }

    /** The end, once no socket is current: nothing is retried and Start() begins a new session. */
    void Finish(ClientError error, int32_t detail) {
        CancelTimers();
        ++epoch;
        identified = false;
        ForgetSession();
        failedAttempts = 0;
        backoff.Reset();
        SetStatus(ClientStatus::Disconnected, error, detail);
    }
};

Session::Session(const net::ClientExecutor &io, net::WebSocketFactory factory, SessionConfig config,
                 SessionEvents events, LogFn log)
    : impl_(std::make_shared<Impl>(io, std::move(factory), std::move(config), std::move(events), std::move(log))) {
    impl_->weakSelf = impl_;
}

Session::~Session() { impl_->Shutdown(); }

// Each entry point holds its own reference: an event handler may destroy the Session while the call runs.
void Session::Start() {
    const auto impl = impl_;
    impl->Start();
}

void Session::Stop() {
    const auto impl = impl_;
    impl->Stop();
}

void Session::SetToken(std::string token) { impl_->config.token = std::move(token); }

bool Session::Send(int op, nlohmann::json data) {
    const auto impl = impl_;
    return impl->Send(op, std::move(data));
}

ClientStatus Session::Status() const { return impl_->status; }

const AttemptFailure &Session::LastFailure() const { return impl_->lastFailure; }

uint64_t Session::DiscardedMessages() const { return impl_->discarded; }

const std::string &Session::SessionId() const { return impl_->sessionId; }

int64_t Session::LastSequence() const { return impl_->seq; }

}  // namespace svcpp::core::gateway
