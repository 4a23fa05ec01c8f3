#include "voice/voice_gateway.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "gateway/backoff.hpp"
#include "generated/enums.hpp"
#include "net/client_executor.hpp"
#include "net/json_fields.hpp"
#include "net/json_text.hpp"
#include "voice/close_codes.hpp"

namespace svcpp::core::voice {

namespace asio = boost::asio;
using nlohmann::json;
using std::chrono::milliseconds;

namespace {

enum Op {
    kIdentify = 0,
    kSelectProtocol = 1,
    kReady = 2,
    kHeartbeat = 3,
    kSessionDescription = 4,
    kSpeaking = 5,
    kHeartbeatAck = 6,
    kResume = 7,
    kHello = 8,
    kResumed = 9,
    kClientsConnect = 11,
    kClientDisconnect = 13,
};

constexpr uint16_t kNormalClose = 1000;

uint64_t IdOf(const json &value) {
    if (value.is_string()) {
        try {
            return std::stoull(value.get<std::string>());
        } catch (...) {
            return 0;
        }
    }
    if (value.is_number_unsigned()) return value.get<uint64_t>();
    return 0;
}

}  // namespace

struct VoiceGateway::Impl : std::enable_shared_from_this<Impl> {
    Impl(const net::ClientExecutor &io, net::WebSocketFactory factory, VoiceGatewayConfig config,
         VoiceGatewayEvents events, VoiceLogFn log)
        : io(io),
          factory(std::move(factory)),
          config(std::move(config)),
          events(std::move(events)),
          log(std::move(log)),
          backoff(this->config.backoffInitialMs, this->config.backoffMaxMs),
          heartbeatTimer(io),
          reconnectTimer(io) {}

    net::ClientExecutor io;
    net::WebSocketFactory factory;
    VoiceGatewayConfig config;
    VoiceGatewayEvents events;
    VoiceLogFn log;
    std::mt19937 rng{std::random_device{}()};
    gateway::Backoff backoff;
    asio::steady_timer heartbeatTimer;
    asio::steady_timer reconnectTimer;

    bool started = false;
    bool stopped = false;
    bool everReady = false;
    bool haveSession = false;  // Ready seen on some connection: a drop may resume
    bool mustIdentify = true;  // the next connection sends Identify (else Resume)
    int32_t failedAttempts = 0;
    int64_t seq = -1;  // last server "seq" seen, -1 = none
    uint32_t ssrc = 0;

    uint64_t epoch = 0;  // changes with every connection, so stale handlers and timers recognise themselves
    std::shared_ptr<net::WebSocket> socket;
    bool helloSeen = false;
    bool usable = false;  // Ready (fresh) or Resumed (resume) seen on this connection
    bool ackPending = false;
    milliseconds heartbeatInterval{0};
    std::map<uint64_t, std::shared_ptr<net::WebSocket>> closing;  // abandoned sockets finishing their close

    void Log(LoggingSeverity severity, std::string line) const {
        if (log) log(static_cast<int>(severity), "voice gateway: " + std::move(line));
    }

    bool Current(uint64_t e) const { return !stopped && e == epoch; }

    void ReleaseLater(std::shared_ptr<net::WebSocket> old) {
        asio::post(io, [old = std::move(old)] {});
    }

    std::string Url() const {
        std::string url = (config.secure ? "wss://" : "ws://") + config.endpoint;
        if (config.endpoint.find('/') == std::string::npos) url += '/';
        url += url.find('?') == std::string::npos ? "?v=8" : "&v=8";
        return url;
    }

    void Start() {
        if (started) return;
        started = true;
        Connect();
    }

    void Stop(bool graceful) {
        if (stopped) return;
        stopped = true;
        heartbeatTimer.cancel();
        reconnectTimer.cancel();
        ++epoch;
        if (socket) {
            auto old = std::move(socket);
            if (graceful) {
                old->Close(kNormalClose, "call ended");  // the socket finishes its close handshake on its own
            } else {
                old->Abort();
            }
            ReleaseLater(std::move(old));
        }
        for (auto &entry : closing) ReleaseLater(std::move(entry.second));
        closing.clear();
    }

    void Connect() {
        const uint64_t e = ++epoch;
        helloSeen = usable = ackPending = false;
        const std::string url = Url();
        Log(LoggingSeverity::Info, "connecting to " + url + (mustIdentify ? " to identify" : " to resume"));
        net::WebSocketHandlers handlers;
        auto weak = weak_from_this();
        handlers.open = [] {};
        handlers.message = [weak, e](std::string text) {
            if (auto self = weak.lock()) self->OnMessage(e, text);
        };
        handlers.binaryMessage = [weak, e](std::string bytes) {
            if (auto self = weak.lock()) self->OnBinaryMessage(e, bytes);
        };
        handlers.closed = [weak, e](int code, std::string reason) {
            if (auto self = weak.lock()) self->OnClosed(e, code, reason);
        };
        auto opening = factory(url, std::move(handlers));
        if (e != epoch) return;  // `closed` ran synchronously and was handled
        if (!opening) {
            asio::post(io, [weak, e] {
                if (auto self = weak.lock()) self->OnClosed(e, 0, "no WebSocket");
            });
            return;
        }
        socket = std::move(opening);
    }

    void Send(int op, json d) {
        if (socket)
            socket->Send(json{{"op", op}, {"d", std::move(d)}}.dump(-1, ' ', false, json::error_handler_t::replace));
    }

    /** Binary server messages (DAVE ops 25, 27, 29, 30): u16 seq | u8 opcode | payload. */
    void OnBinaryMessage(uint64_t e, const std::string &bytes) {
        if (!Current(e)) return;
        if (bytes.size() < 3) {
            Log(LoggingSeverity::Warning, "discarded a binary message of " + std::to_string(bytes.size()) + " bytes");
            return;
        }
        seq = (static_cast<uint8_t>(bytes[0]) << 8) | static_cast<uint8_t>(bytes[1]);
        const auto op = static_cast<uint8_t>(bytes[2]);
        if (events.daveBinary) events.daveBinary(op, std::vector<uint8_t>(bytes.begin() + 3, bytes.end()));
    }

    void OnMessage(uint64_t e, const std::string &text) {
        if (!Current(e)) return;
        json message = net::ParseJson(text);
        if (message.is_discarded() || !message.is_object() || !message.contains("op") ||
            !message["op"].is_number_integer()) {
            Log(LoggingSeverity::Warning, "discarded a malformed frame (" + std::to_string(text.size()) + " bytes)");
            return;
        }
        if (const auto s = message.find("seq"); s != message.end() && s->is_number_integer()) seq = s->get<int64_t>();
        static const json kNull;
        const auto found = message.find("d");
        const json &d = found != message.end() ? *found : kNull;
        const uint64_t mark = epoch;
        switch (message["op"].get<int>()) {
            case kHello: return OnHello(d);
            case kHeartbeatAck: ackPending = false; return;
            case kReady: return OnReady(d);
            case kSessionDescription: return OnSessionDescription(d);
            case kResumed:
                usable = true;
                failedAttempts = 0;
                backoff.Reset();
                Log(LoggingSeverity::Info, "resumed");
                if (events.resumed) events.resumed();
                return;
            case kSpeaking: {
                const uint64_t user = IdOf(wire::Member(d, "user_id"));
                const auto ssrcValue = wire::Member(d, "ssrc");
                const auto flags = wire::Member(d, "speaking");
                if (!user || !ssrcValue.is_number_unsigned()) return;
                if (events.speaking)
                    events.speaking(user, ssrcValue.get<uint32_t>(),
                                    flags.is_number_unsigned() ? flags.get<uint32_t>() : 0);
                return;
            }
            case kClientsConnect: {
                std::vector<uint64_t> ids;
                const auto &list = wire::Member(d, "user_ids");
                if (list.is_array()) {
                    for (const auto &id : list) {
                        if (uint64_t v = IdOf(id)) ids.push_back(v);
                    }
                }
                if (events.clientsConnect && !ids.empty()) events.clientsConnect(ids);
                return;
            }
            case kClientDisconnect: {
                const uint64_t user = IdOf(wire::Member(d, "user_id"));
                if (user && events.clientDisconnect) events.clientDisconnect(user);
                return;
            }
            default:
                (void)mark;
                if (const int op = message["op"].get<int>(); op >= 21 && op <= 31) {
                    if (events.daveJson) events.daveJson(op, d);
                    return;
                }
                Log(LoggingSeverity::Verbose, "ignoring voice op " + std::to_string(message["op"].get<int>()));
        }
    }

    void OnHello(const json &d) {
        const auto &interval = wire::Member(d, "heartbeat_interval");
        if (helloSeen || !interval.is_number() || interval.get<double>() <= 0) {
            Log(LoggingSeverity::Warning, "ignoring a malformed or repeated Hello");
            return;
        }
        helloSeen = true;
        heartbeatInterval = milliseconds(static_cast<int64_t>(interval.get<double>()));
        ScheduleHeartbeat(heartbeatInterval);
        if (mustIdentify) {
            Log(LoggingSeverity::Info, "sending Identify");
            Send(kIdentify, {{"server_id", std::to_string(config.serverId)},
                             {"user_id", std::to_string(config.userId)},
                             {"session_id", config.sessionId},
                             {"token", config.token},
                             {"max_dave_protocol_version", config.maxDaveProtocolVersion}});
        } else {
            Log(LoggingSeverity::Info, "sending Resume, seq_ack " + std::to_string(seq));
            Send(kResume, {{"server_id", std::to_string(config.serverId)},
                           {"session_id", config.sessionId},
                           {"token", config.token},
                           {"seq_ack", seq}});
        }
    }

    void OnReady(const json &d) {
        VoiceReady ready;
        const auto &ssrcValue = wire::Member(d, "ssrc");
        const auto &portValue = wire::Member(d, "port");
        if (!ssrcValue.is_number_unsigned() || !portValue.is_number_unsigned()) {
            Log(LoggingSeverity::Warning, "discarded a malformed Ready");
            return;
        }
        ready.ssrc = ssrcValue.get<uint32_t>();
        ready.port = static_cast<uint16_t>(portValue.get<uint32_t>());
        ready.ip = wire::String(d, "ip");
        if (const auto &modes = wire::Member(d, "modes"); modes.is_array()) {
            for (const auto &m : modes) {
                if (m.is_string()) ready.modes.push_back(m.get<std::string>());
            }
        }
        ssrc = ready.ssrc;
        usable = true;
        everReady = true;
        haveSession = true;
        mustIdentify = false;
        failedAttempts = 0;
        backoff.Reset();
        Log(LoggingSeverity::Info,
            "ready: ssrc " + std::to_string(ready.ssrc) + ", udp " + ready.ip + ":" + std::to_string(ready.port));
        if (events.ready) events.ready(ready);
    }

    void OnSessionDescription(const json &d) {
        const std::string mode = wire::String(d, "mode");
        const auto &key = wire::Member(d, "secret_key");
        std::array<uint8_t, 32> secret{};
        if (!key.is_array() || key.size() != secret.size()) {
            Log(LoggingSeverity::Warning, "discarded a Session Description without a 32-byte key");
            return;
        }
        for (std::size_t i = 0; i < secret.size(); ++i) {
            if (!key[i].is_number_unsigned() || key[i].get<uint32_t>() > 255) return;
            secret[i] = static_cast<uint8_t>(key[i].get<uint32_t>());
        }
        const auto &dave = wire::Member(d, "dave_protocol_version");
        const int daveVersion = dave.is_number_unsigned() && dave.get<uint64_t>() <= 255 ? dave.get<int>() : 0;
        Log(LoggingSeverity::Info,
            "session description: mode " + mode + ", DAVE protocol version " + std::to_string(daveVersion));
        if (events.sessionDescription) events.sessionDescription(mode, secret, daveVersion);
    }

    void ScheduleHeartbeat(milliseconds delay) {
        heartbeatTimer.expires_after(delay);
        heartbeatTimer.async_wait([weak = weak_from_this(), e = epoch](const boost::system::error_code &ec) {
            if (ec) return;
            if (auto self = weak.lock(); self && self->Current(e)) self->OnHeartbeatDue();
        });
    }

    void OnHeartbeatDue() {
        if (ackPending) {
            Log(LoggingSeverity::Warning, "no heartbeat ACK since the last heartbeat: zombie connection");
            return Drop(0, /*abort=*/true);
        }
        ackPending = true;
        const int64_t nonce =
            std::chrono::duration_cast<milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
        Send(kHeartbeat, {{"t", nonce}, {"seq_ack", seq}});
        ScheduleHeartbeat(heartbeatInterval);
    }

    void OnClosed(uint64_t e, int code, const std::string &reason) {
        closing.erase(e);
        if (!Current(e)) return;
        Log(LoggingSeverity::Info, "closed with " + std::to_string(code) + (reason.empty() ? "" : " (" + reason + ")"));
        Drop(code, false);
    }

    /** The live connection is over (closed by the peer, or dropped by us): resume, re-identify or end. */
    void Drop(int code, bool abort) {
        heartbeatTimer.cancel();
        if (socket) {
            auto old = std::move(socket);
            if (abort)
                old->Abort();
            else
                old->Close(kVoiceResumableClientClose, "reconnecting");
            closing.emplace(epoch, old);
            ReleaseLater(std::move(old));
        }
        ++epoch;
        VoiceCloseAction action = ClassifyVoiceClose(code);
        if (action != VoiceCloseAction::Terminal && ++failedAttempts > config.maxFailedAttempts) {
            Log(LoggingSeverity::Warning,
                "giving up after " + std::to_string(config.maxFailedAttempts) + " failed attempts");
            action = VoiceCloseAction::Terminal;
        }
        if (action == VoiceCloseAction::Terminal || !haveSession) {
            // Before any Ready there is nothing to resume: a failed first connection ends the call.
            stopped = true;
            reconnectTimer.cancel();
            if (events.ended) events.ended(code, everReady);
            return;
        }
        mustIdentify = action == VoiceCloseAction::Reconnect;
        if (mustIdentify) seq = -1;  // a fresh session acknowledges nothing of the old one
        if (events.interrupted) events.interrupted(code);
        if (stopped) return;  // the handler ended the call
        reconnectTimer.expires_after(milliseconds(backoff.Next(rng)));
        reconnectTimer.async_wait([weak = weak_from_this()](const boost::system::error_code &ec) {
            if (ec) return;
            if (auto self = weak.lock(); self && !self->stopped) self->Connect();
        });
    }
};

VoiceGateway::VoiceGateway(const net::ClientExecutor &io, net::WebSocketFactory factory, VoiceGatewayConfig config,
                           VoiceGatewayEvents events, VoiceLogFn log)
    : impl_(std::make_shared<Impl>(io, std::move(factory), std::move(config), std::move(events), std::move(log))) {}

VoiceGateway::~VoiceGateway() { impl_->Stop(false); }

void VoiceGateway::Start() { impl_->Start(); }
void VoiceGateway::Stop() { impl_->Stop(true); }

bool VoiceGateway::SelectProtocol(const std::string &address, uint16_t port, const std::string &mode) {
    if (impl_->stopped || !impl_->usable || !impl_->socket) return false;
    impl_->Send(kSelectProtocol,
                {{"protocol", "udp"}, {"data", {{"address", address}, {"port", port}, {"mode", mode}}}});
    return true;
}

bool VoiceGateway::SetSpeaking(uint32_t flags, uint32_t ssrc) {
    if (impl_->stopped || !impl_->usable || !impl_->socket) return false;
    impl_->Send(kSpeaking, {{"speaking", flags}, {"delay", 0}, {"ssrc", ssrc}});
    return true;
}

bool VoiceGateway::SendDaveBinary(const std::vector<uint8_t> &message) {
    if (impl_->stopped || !impl_->usable || !impl_->socket) return false;
    impl_->socket->SendBinary(std::string(message.begin(), message.end()));
    return true;
}

bool VoiceGateway::SendDaveJson(int op, const json &d) {
    if (impl_->stopped || !impl_->usable || !impl_->socket) return false;
    impl_->Send(op, d);
    return true;
}

void VoiceGateway::DropForTest() {
    if (!impl_->stopped && impl_->socket) impl_->Drop(0, true);
}

int64_t VoiceGateway::LastSeq() const { return impl_->seq; }
uint32_t VoiceGateway::Ssrc() const { return impl_->ssrc; }

}  // namespace svcpp::core::voice
