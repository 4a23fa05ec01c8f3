// The gateway session against a scripted server: a fake WebSocketFactory whose sockets the test drives, on an
// io_context the test runs. Intervals and backoffs are tiny so every scenario takes milliseconds.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gateway/backoff.hpp"
#include "gateway/close_codes.hpp"
#include "gateway/session.hpp"
#include "net/client_executor.hpp"

namespace asio = boost::asio;
namespace net = svcpp::core::net;
using nlohmann::json;
using svcpp::core::ClientError;
using svcpp::core::ClientStatus;
using svcpp::core::LoggingSeverity;
using svcpp::core::gateway::Backoff;
using svcpp::core::gateway::ClassifyClose;
using svcpp::core::gateway::CloseAction;
using svcpp::core::gateway::Session;
using svcpp::core::gateway::SessionConfig;
using svcpp::core::gateway::SessionEvents;
using namespace std::chrono_literals;

namespace {

const std::string kUrl = "ws://127.0.0.1:8787/gateway";
const std::string kResumeUrl = "ws://127.0.0.1:8787/gateway-resume";
const std::string kQuery = "?v=10&encoding=json";
const std::string kToken = "tok-SECRET-1234";
const std::string kSessionId = "0123456789abcdef0123456789abcdef";

// A WebSocket whose peer is the test. Everything reaches the session through the io_context, like the real one.
class FakeSocket : public net::WebSocket, public std::enable_shared_from_this<FakeSocket> {
  public:
    FakeSocket(asio::io_context &io, std::string url, net::WebSocketHandlers handlers)
        : url(std::move(url)), io_(io), handlers_(std::move(handlers)) {}

    void Send(std::string text) override {
        if (closing_) return;
        json payload = json::parse(text);
        if (autoAck && payload["op"] == 1) Push({{"op", 11}});
        sent.push_back(std::move(payload));
    }
    void SendBinary(std::string) override { ADD_FAILURE() << "the main gateway sends no binary message"; }
    void Close(uint16_t code, std::string) override {
        if (closing_) return;
        closing_ = true;
        clientCloseCode = code;
        if (echoClose) Closed(code);  // the peer answers the close frame at once
    }
    void Abort() override {
        aborted = true;
        closing_ = true;
        Closed(0);
    }

    // The server's side.
    void Open() {
        Post([](net::WebSocketHandlers &h) { h.open(); });
    }
    void Push(const json &message) { PushText(message.dump()); }
    void PushText(std::string text) {
        Post([text](net::WebSocketHandlers &h) { h.message(text); });
    }
    /** The transport fails before or after opening (DNS, refused, TLS …): `failed`, then `closed` with code 0. */
    void Fail(net::NetFailure kind) {
        if (done_) return;
        done_ = true;
        asio::post(io_, [self = shared_from_this(), kind] {
            if (self->handlers_.failed) self->handlers_.failed(kind);
            self->handlers_.closed(0, "transport failed");
        });
    }
    /** The connection ends: server close, drop (0), or our own close echoed. `closed` fires once, last. */
    void Closed(int code) {
        if (done_) return;
        done_ = true;
        asio::post(io_, [self = shared_from_this(), code] { self->handlers_.closed(code, "test"); });
    }

    std::string url;
    std::vector<json> sent;
    std::optional<int> clientCloseCode;
    bool aborted = false;
    bool echoClose = true;  // false: Close() waits for the test to call Closed()
    bool autoAck = false;   // answer every heartbeat with op 11

  private:
    void Post(std::function<void(net::WebSocketHandlers &)> fn) {
        if (done_) return;  // nothing arrives after the connection ended
        asio::post(io_, [self = shared_from_this(), fn = std::move(fn)] { fn(self->handlers_); });
    }

    asio::io_context &io_;
    net::WebSocketHandlers handlers_;
    bool closing_ = false;
    bool done_ = false;
};

using StatusEvent = std::tuple<ClientStatus, ClientError, int32_t>;

struct Harness {
    Harness() {
        config.url = kUrl;
        config.token = kToken;
        config.backoffInitialMs = 10;
        config.backoffMaxMs = 40;
    }

    void Create() {
        auto factory = [this](const std::string &url, net::WebSocketHandlers handlers) {
            auto socket = std::make_shared<FakeSocket>(io, url, std::move(handlers));
            sockets.push_back(socket);
            return socket;
        };
        SessionEvents events;
        events.status = [this](ClientStatus s, ClientError e, int32_t detail) {
            statuses.emplace_back(s, e, detail);
            trace.push_back(std::string("status ") + ToString(s));
            if (onStatus) onStatus(s);
        };
        events.dispatch = [this](const std::string &type, const json &d) {
            dispatches.emplace_back(type, d);
            trace.push_back("dispatch " + type);
            if (onDispatch) onDispatch(type);
        };
        events.discarded = [this] { ++discardedEvents; };
        events.wantsData = wantsData;
        auto log = [this](LoggingSeverity severity, std::string line) { logs.emplace_back(severity, std::move(line)); };
        session = std::make_unique<Session>(net::ClientExecutor(io), factory, config, events, log);
    }

    bool RunUntil(const std::function<bool()> &done, std::chrono::milliseconds limit = 2s) {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (!done()) {
            if (std::chrono::steady_clock::now() >= deadline) return false;
            io.run_for(1ms);
        }
        return true;
    }
    void RunFor(std::chrono::milliseconds duration) { io.run_for(duration); }

    FakeSocket &WaitSocket(size_t index) {
        EXPECT_TRUE(RunUntil([&] { return sockets.size() > index; })) << "no connection #" << index;
        return *sockets.at(index);
    }
    /** The nth payload with this op the session sent on socket, waiting for it; null when it never comes. */
    json WaitSent(FakeSocket &socket, int op, size_t nth = 0) {
        json found;
        RunUntil([&] {
            size_t seen = 0;
            for (const auto &payload : socket.sent) {
                if (payload["op"] == op && seen++ == nth) {
                    found = payload;
                    return true;
                }
            }
            return false;
        });
        return found;
    }
    bool SentOp(const FakeSocket &socket, int op) const {
        return std::any_of(socket.sent.begin(), socket.sent.end(), [op](const json &p) { return p["op"] == op; });
    }

    ClientStatus Status() const { return statuses.empty() ? ClientStatus::Disconnected : std::get<0>(statuses.back()); }
    size_t Count(ClientStatus status) const {
        return std::count_if(statuses.begin(), statuses.end(),
                             [status](const StatusEvent &e) { return std::get<0>(e) == status; });
    }
    bool WaitStatus(ClientStatus status, size_t times = 1) {
        return RunUntil([&] { return Count(status) >= times; });
    }

    static void Hello(FakeSocket &socket, int intervalMs = 60000) {
        socket.Open();
        socket.Push({{"op", 10}, {"d", {{"heartbeat_interval", intervalMs}}}});
    }
    static void Dispatch(FakeSocket &socket, const std::string &type, int64_t seq, json d = json::object()) {
        socket.Push({{"op", 0}, {"t", type}, {"s", seq}, {"d", std::move(d)}});
    }
    static void Ready(FakeSocket &socket) {
        Dispatch(socket, "READY", 1,
                 {{"v", 10}, {"user", {{"id", "42"}}}, {"session_id", kSessionId}, {"resume_gateway_url", kResumeUrl}});
    }

    /** Start → Hello → Identify → READY → Ready on connection #0. */
    FakeSocket &ConnectReady(int heartbeatMs = 60000) {
        if (!session) Create();
        session->Start();
        FakeSocket &socket = WaitSocket(0);
        Hello(socket, heartbeatMs);
        EXPECT_FALSE(WaitSent(socket, 2).is_null());
        Ready(socket);
        EXPECT_TRUE(WaitStatus(ClientStatus::Ready));
        return socket;
    }

    /** The resume a new connection sends after Hello. */
    json ExpectResume(FakeSocket &socket, int64_t seq) {
        EXPECT_EQ(socket.url, kResumeUrl + kQuery);
        Hello(socket);
        json resume = WaitSent(socket, 6);
        EXPECT_EQ(resume["d"], (json{{"token", "Bearer " + kToken}, {"session_id", kSessionId}, {"seq", seq}}));
        EXPECT_FALSE(SentOp(socket, 2));
        return resume;
    }
    void ExpectIdentify(FakeSocket &socket) {
        EXPECT_EQ(socket.url, kUrl + kQuery);
        Hello(socket);
        EXPECT_EQ(WaitSent(socket, 2)["d"]["token"], "Bearer " + kToken);
        EXPECT_FALSE(SentOp(socket, 6));
    }

    asio::io_context io;
    asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(io);
    SessionConfig config;
    std::vector<std::shared_ptr<FakeSocket>> sockets;
    std::vector<StatusEvent> statuses;
    std::vector<std::string> trace;  // statuses and dispatches, interleaved as delivered
    std::vector<std::pair<std::string, json>> dispatches;
    std::vector<std::pair<LoggingSeverity, std::string>> logs;
    int discardedEvents = 0;
    std::function<void(ClientStatus)> onStatus;
    std::function<void(const std::string &)> onDispatch;
    std::function<bool(std::string_view)> wantsData;  // SessionEvents::wantsData (unset: every dispatch is wanted)
    std::unique_ptr<Session> session;
};

StatusEvent Ok(ClientStatus status) { return {status, ClientError::None, 0}; }

}  // namespace

TEST(GatewaySession, HappyPathIdentifiesAndDeliversReadyBetweenConnectedAndReady) {
    Harness h;
    h.Create();
    h.session->Start();
    EXPECT_EQ(h.session->Status(), ClientStatus::Connecting);
    FakeSocket &socket = h.WaitSocket(0);
    EXPECT_EQ(socket.url, kUrl + kQuery);
    Harness::Hello(socket);
    const json identify = h.WaitSent(socket, 2);
    EXPECT_EQ(identify["d"]["token"], "Bearer " + kToken);
    EXPECT_EQ(identify["d"]["properties"], h.config.properties);
    EXPECT_FALSE(identify["d"].contains("intents"));  // user sessions omit intents
    EXPECT_FALSE(h.session->Send(3, json::object()));
    Harness::Ready(socket);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Ready));
    EXPECT_EQ(h.trace,
              (std::vector<std::string>{"status Connecting", "status Connected", "dispatch READY", "status Ready"}));
    EXPECT_EQ(h.statuses, (std::vector<StatusEvent>{Ok(ClientStatus::Connecting), Ok(ClientStatus::Connected),
                                                    Ok(ClientStatus::Ready)}));
    EXPECT_EQ(h.dispatches[0].second["user"]["id"], "42");
    EXPECT_EQ(h.session->SessionId(), kSessionId);
    EXPECT_EQ(h.session->LastSequence(), 1);

    Harness::Dispatch(socket, "USER_UPDATE", 2, {{"id", "42"}});
    ASSERT_TRUE(h.RunUntil([&] { return h.dispatches.size() == 2; }));
    EXPECT_EQ(h.dispatches[1].first, "USER_UPDATE");
    EXPECT_EQ(h.session->LastSequence(), 2);
}

TEST(GatewaySession, SendWorksOnlyWhileIdentified) {
    Harness h;
    FakeSocket &socket = h.ConnectReady();
    const json presence = {{"since", nullptr}, {"activities", json::array()}, {"status", "online"}, {"afk", false}};
    EXPECT_TRUE(h.session->Send(3, presence));
    EXPECT_EQ(h.WaitSent(socket, 3), (json{{"op", 3}, {"d", presence}}));
    socket.Closed(4000);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Reconnecting));
    EXPECT_FALSE(h.session->Send(3, presence));
}

TEST(GatewaySession, HeartbeatsCarryTheLastSequence) {
    Harness h;
    h.Create();
    h.session->Start();
    FakeSocket &socket = h.WaitSocket(0);
    Harness::Hello(socket, 50);
    const json first = h.WaitSent(socket, 1);
    ASSERT_FALSE(first.is_null());
    EXPECT_TRUE(first["d"].is_null());  // nothing received yet
    socket.autoAck = true;
    socket.Push({{"op", 11}});
    Harness::Ready(socket);
    Harness::Dispatch(socket, "USER_UPDATE", 2);
    ASSERT_TRUE(h.RunUntil([&] {
        return std::any_of(socket.sent.begin(), socket.sent.end(),
                           [](const json &p) { return p["op"] == 1 && p["d"] == 2; });
    }));
    EXPECT_EQ(h.sockets.size(), 1u);  // acknowledged beats keep the connection
    EXPECT_EQ(h.Count(ClientStatus::Reconnecting), 0u);
}

TEST(GatewaySession, ServerHeartbeatRequestIsAnsweredAtOnce) {
    Harness h;
    FakeSocket &socket = h.ConnectReady();  // 60 s interval: no beat of our own during the test
    EXPECT_FALSE(h.SentOp(socket, 1));
    socket.Push({{"op", 1}, {"d", nullptr}});
    EXPECT_EQ(h.WaitSent(socket, 1), (json{{"op", 1}, {"d", 1}}));
}

TEST(GatewaySession, MissedAckAbortsAndResumesDeliveringEachSequenceOnce) {
    Harness h;
    FakeSocket &first = h.ConnectReady(40);
    Harness::Dispatch(first, "USER_UPDATE", 2);
    // No ACK ever: when the second beat is due the first is still unanswered.
    ASSERT_TRUE(h.RunUntil([&] { return first.aborted; }));
    FakeSocket &second = h.WaitSocket(1);
    h.ExpectResume(second, 2);
    Harness::Dispatch(second, "MESSAGE_CREATE", 3, {{"n", 3}});
    Harness::Dispatch(second, "MESSAGE_CREATE", 3, {{"n", 33}});  // duplicate sequence
    Harness::Dispatch(second, "MESSAGE_CREATE", 2, {{"n", 2}});   // already delivered before the drop
    Harness::Dispatch(second, "MESSAGE_CREATE", 4, {{"n", 4}});
    Harness::Dispatch(second, "RESUMED", 5, nullptr);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Ready, 2));

    std::vector<std::string> delivered;
    for (const auto &[type, d] : h.dispatches)
        delivered.push_back(type == "MESSAGE_CREATE" ? type + std::to_string(d["n"].get<int>()) : type);
    EXPECT_EQ(delivered,
              (std::vector<std::string>{"READY", "USER_UPDATE", "MESSAGE_CREATE3", "MESSAGE_CREATE4", "RESUMED"}));
    EXPECT_EQ(h.statuses, (std::vector<StatusEvent>{Ok(ClientStatus::Connecting), Ok(ClientStatus::Connected),
                                                    Ok(ClientStatus::Ready), Ok(ClientStatus::Reconnecting),
                                                    Ok(ClientStatus::Connecting), Ok(ClientStatus::Connected),
                                                    Ok(ClientStatus::Ready)}));
    EXPECT_EQ(h.session->LastSequence(), 5);
    EXPECT_EQ(h.session->SessionId(), kSessionId);
}

TEST(GatewaySession, ServerClose4000Resumes) {
    Harness h;
    FakeSocket &first = h.ConnectReady();
    first.Closed(4000);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Reconnecting));
    EXPECT_EQ(h.statuses.back(), (StatusEvent{ClientStatus::Reconnecting, ClientError::None, 4000}));
    FakeSocket &second = h.WaitSocket(1);
    h.ExpectResume(second, 1);
    Harness::Dispatch(second, "RESUMED", 2, nullptr);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Ready, 2));
}

TEST(GatewaySession, ReconnectRequestClosesKeepingTheSessionAndResumes) {
    Harness h;
    FakeSocket &first = h.ConnectReady();
    first.Push({{"op", 7}, {"d", nullptr}});
    FakeSocket &second = h.WaitSocket(1);
    ASSERT_TRUE(first.clientCloseCode.has_value());
    EXPECT_NE(*first.clientCloseCode, 1000);  // 1000/1001 would end the session on the server
    EXPECT_NE(*first.clientCloseCode, 1001);
    h.ExpectResume(second, 1);
    Harness::Dispatch(second, "RESUMED", 2, nullptr);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Ready, 2));
    EXPECT_EQ(h.Count(ClientStatus::Reconnecting), 1u);  // the old socket's own `closed` changes nothing
}

TEST(GatewaySession, EventsOfAnAbandonedSocketAreIgnored) {
    Harness h;
    FakeSocket &first = h.ConnectReady();
    first.echoClose = false;  // the old connection lingers after we asked to close it
    first.Push({{"op", 7}, {"d", nullptr}});
    FakeSocket &second = h.WaitSocket(1);
    Harness::Dispatch(first, "USER_UPDATE", 2);
    first.Closed(4000);
    h.RunFor(50ms);
    EXPECT_EQ(h.dispatches.size(), 1u);
    EXPECT_EQ(h.Count(ClientStatus::Reconnecting), 1u);
    EXPECT_EQ(h.sockets.size(), 2u);
    h.ExpectResume(second, 1);
}

TEST(GatewaySession, InvalidSessionFalseIdentifiesAfresh) {
    Harness h;
    FakeSocket &first = h.ConnectReady();
    first.Push({{"op", 9}, {"d", false}});
    FakeSocket &second = h.WaitSocket(1);
    EXPECT_EQ(h.session->SessionId(), "");
    EXPECT_EQ(h.session->LastSequence(), 0);
    h.ExpectIdentify(second);
    Harness::Ready(second);  // sequence 1 again: a new session's numbering
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Ready, 2));
    EXPECT_EQ(h.dispatches.size(), 2u);
}

TEST(GatewaySession, InvalidSessionTrueResumes) {
    Harness h;
    FakeSocket &first = h.ConnectReady();
    first.Push({{"op", 9}, {"d", true}});
    h.ExpectResume(h.WaitSocket(1), 1);
}

class GatewaySessionNewSessionClose : public testing::TestWithParam<int> {};

TEST_P(GatewaySessionNewSessionClose, IdentifiesAfresh) {
    Harness h;
    FakeSocket &first = h.ConnectReady();
    first.Closed(GetParam());
    FakeSocket &second = h.WaitSocket(1);
    EXPECT_EQ(h.statuses[3], (StatusEvent{ClientStatus::Reconnecting, ClientError::None, GetParam()}));
    h.ExpectIdentify(second);
}

INSTANTIATE_TEST_SUITE_P(Codes, GatewaySessionNewSessionClose, testing::Values(4007, 4009));

class GatewaySessionTerminalClose : public testing::TestWithParam<int> {};

TEST_P(GatewaySessionTerminalClose, DisconnectsWithoutRetrying) {
    Harness h;
    FakeSocket &first = h.ConnectReady();
    first.Closed(GetParam());
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Disconnected));
    EXPECT_EQ(h.statuses.back(), (StatusEvent{ClientStatus::Disconnected, ClientError::UnexpectedClose, GetParam()}));
    const size_t events = h.statuses.size();
    h.RunFor(100ms);
    EXPECT_EQ(h.sockets.size(), 1u);
    EXPECT_EQ(h.statuses.size(), events);
}

INSTANTIATE_TEST_SUITE_P(Codes, GatewaySessionTerminalClose, testing::Values(4004, 4010, 4011, 4012, 4013, 4014));

TEST(GatewaySession, RejectedIdentifyIsTerminal) {
    Harness h;
    h.Create();
    h.session->Start();
    FakeSocket &socket = h.WaitSocket(0);
    Harness::Hello(socket);
    h.WaitSent(socket, 2);
    socket.Closed(4004);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Disconnected));
    EXPECT_EQ(h.statuses, (std::vector<StatusEvent>{Ok(ClientStatus::Connecting),
                                                    {ClientStatus::Disconnected, ClientError::UnexpectedClose, 4004}}));
    h.RunFor(100ms);
    EXPECT_EQ(h.sockets.size(), 1u);
}

TEST(GatewaySession, GivesUpAfterMaxFailedAttempts) {
    Harness h;
    h.config.maxFailedAttempts = 3;
    h.Create();
    h.session->Start();
    for (size_t i = 0; i < 3; ++i) h.WaitSocket(i).Closed(0);  // unreachable: never opens
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Disconnected));
    EXPECT_EQ(h.statuses, (std::vector<StatusEvent>{Ok(ClientStatus::Connecting),
                                                    Ok(ClientStatus::Reconnecting),
                                                    Ok(ClientStatus::Connecting),
                                                    Ok(ClientStatus::Reconnecting),
                                                    Ok(ClientStatus::Connecting),
                                                    {ClientStatus::Disconnected, ClientError::ConnectionFailed, 0}}));
    h.RunFor(100ms);
    EXPECT_EQ(h.sockets.size(), 3u);
}

TEST(GatewaySession, ReadyResetsFailuresAndAnUnreachableResumeUrlFallsBack) {
    Harness h;
    h.config.maxFailedAttempts = 2;
    h.Create();
    h.session->Start();
    h.WaitSocket(0).Closed(0);  // failure 1
    FakeSocket &second = h.WaitSocket(1);
    Harness::Hello(second);
    Harness::Ready(second);  // success: the count starts again
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Ready));
    second.Closed(4000);  // not a failed attempt: it had READY
    FakeSocket &third = h.WaitSocket(2);
    EXPECT_EQ(third.url, kResumeUrl + kQuery);
    third.Closed(0);  // failure 1 again
    FakeSocket &fourth = h.WaitSocket(3);
    EXPECT_EQ(fourth.url, kUrl + kQuery);  // still a resume, on the configured URL
    Harness::Hello(fourth);
    EXPECT_EQ(h.WaitSent(fourth, 6)["d"]["session_id"], kSessionId);
    EXPECT_EQ(h.Count(ClientStatus::Disconnected), 0u);
}

TEST(GatewaySession, StopWhileReadyClosesWith1000AndWaitsForTheClose) {
    Harness h;
    FakeSocket &socket = h.ConnectReady();
    socket.echoClose = false;
    h.session->Stop();
    EXPECT_EQ(h.session->Status(), ClientStatus::Disconnecting);
    EXPECT_EQ(socket.clientCloseCode, 1000);
    h.RunFor(30ms);
    EXPECT_EQ(h.Count(ClientStatus::Disconnected), 0u);
    socket.Closed(1000);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Disconnected));
    EXPECT_EQ(std::vector<StatusEvent>(h.statuses.end() - 2, h.statuses.end()),
              (std::vector<StatusEvent>{Ok(ClientStatus::Disconnecting), Ok(ClientStatus::Disconnected)}));
    EXPECT_EQ(h.session->SessionId(), "");
    h.RunFor(100ms);
    EXPECT_EQ(h.sockets.size(), 1u);
    h.session->Stop();  // a no-op once Disconnected
    EXPECT_EQ(h.Count(ClientStatus::Disconnecting), 1u);
}

TEST(GatewaySession, StopWhileConnectingIsCanceled) {
    Harness h;
    h.Create();
    h.session->Start();
    FakeSocket &socket = h.WaitSocket(0);
    h.session->Stop();
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Disconnected));
    EXPECT_EQ(h.statuses, (std::vector<StatusEvent>{Ok(ClientStatus::Connecting),
                                                    Ok(ClientStatus::Disconnecting),
                                                    {ClientStatus::Disconnected, ClientError::ConnectionCanceled, 0}}));
    EXPECT_EQ(socket.clientCloseCode, 1000);
}

TEST(GatewaySession, StopDuringBackoffDisconnectsAtOnce) {
    Harness h;
    h.config.backoffInitialMs = 300;
    FakeSocket &socket = h.ConnectReady();
    socket.Closed(4000);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Reconnecting));
    h.session->Stop();
    EXPECT_EQ(std::vector<StatusEvent>(h.statuses.end() - 2, h.statuses.end()),
              (std::vector<StatusEvent>{Ok(ClientStatus::Disconnecting), Ok(ClientStatus::Disconnected)}));
    h.RunFor(500ms);
    EXPECT_EQ(h.sockets.size(), 1u);
}

TEST(GatewaySession, StartAgainAfterStopIdentifiesAfresh) {
    Harness h;
    h.ConnectReady();
    h.session->Stop();
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Disconnected));
    h.session->Start();
    h.ExpectIdentify(h.WaitSocket(1));
}

TEST(GatewaySession, StopFromAStatusEventEndsTheHandshake) {
    Harness h;
    h.onStatus = [&](ClientStatus status) {
        if (status == ClientStatus::Connected) h.session->Stop();
    };
    h.Create();
    h.session->Start();
    FakeSocket &socket = h.WaitSocket(0);
    Harness::Hello(socket);
    Harness::Ready(socket);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Disconnected));
    h.RunFor(50ms);
    EXPECT_EQ(h.trace, (std::vector<std::string>{"status Connecting", "status Connected", "status Disconnecting",
                                                 "status Disconnected"}));
    EXPECT_EQ(h.statuses.back(), Ok(ClientStatus::Disconnected));
    EXPECT_EQ(socket.clientCloseCode, 1000);
}

TEST(GatewaySession, DestroyingTheSessionFromAStatusEventStopsEverything) {
    Harness h;
    h.onStatus = [&](ClientStatus status) {
        if (status == ClientStatus::Connected) h.session.reset();
    };
    h.Create();
    h.session->Start();
    FakeSocket &socket = h.WaitSocket(0);
    Harness::Hello(socket, 20);
    Harness::Ready(socket);
    ASSERT_TRUE(h.RunUntil([&] { return !h.session; }));
    h.RunFor(100ms);
    EXPECT_EQ(h.trace, (std::vector<std::string>{"status Connecting", "status Connected"}));
    EXPECT_TRUE(socket.aborted);
}

TEST(GatewaySession, DestroyingTheSessionWhileReconnectingStopsEverything) {
    Harness h;
    h.onStatus = [&](ClientStatus status) {
        if (status == ClientStatus::Reconnecting) h.session.reset();
    };
    h.ConnectReady().Closed(4000);
    ASSERT_TRUE(h.RunUntil([&] { return !h.session; }));
    h.RunFor(100ms);
    EXPECT_EQ(h.sockets.size(), 1u);
    EXPECT_EQ(h.statuses.size(), 4u);
}

TEST(GatewaySession, DestroyingTheSessionFromADispatchStopsEverything) {
    Harness h;
    FakeSocket &socket = h.ConnectReady();
    h.onDispatch = [&](const std::string &type) {
        if (type == "USER_UPDATE") h.session.reset();
    };
    Harness::Dispatch(socket, "USER_UPDATE", 2);
    Harness::Dispatch(socket, "PRESENCE_UPDATE", 3);
    ASSERT_TRUE(h.RunUntil([&] { return !h.session; }));
    h.RunFor(100ms);
    EXPECT_EQ(h.dispatches.size(), 2u);  // READY, USER_UPDATE
}

TEST(GatewaySession, MalformedFramesAreLoggedAndIgnored) {
    Harness h;
    FakeSocket &socket = h.ConnectReady();
    socket.PushText("not json");
    socket.PushText("[1, 2]");
    socket.PushText(R"({"op": "0"})");
    socket.PushText(R"({"d": 1})");
    Harness::Dispatch(socket, "USER_UPDATE", 2);
    ASSERT_TRUE(h.RunUntil([&] { return h.dispatches.size() == 2; }));
    const auto warnings =
        std::count_if(h.logs.begin(), h.logs.end(), [](const auto &l) { return l.first == LoggingSeverity::Warning; });
    EXPECT_EQ(warnings, 4);
    EXPECT_EQ(h.session->DiscardedMessages(), 4u);  // counted, not only logged
    EXPECT_EQ(h.discardedEvents, 4);
    EXPECT_EQ(h.session->Status(), ClientStatus::Ready);
}

// The JSON reader's two limits (net/json_reader.hpp; nlohmann reads both of these frames): a frame past one is
// unreadable — discarded and counted like any malformed frame — and the session goes on.
TEST(GatewaySession, FramesPastTheJsonReadersLimitsAreDiscarded) {
    Harness h;
    FakeSocket &socket = h.ConnectReady();
    socket.PushText(R"({"op":0,"t":"USER_UPDATE","s":2,"d":)" + std::string(300, '[') + std::string(300, ']') + "}");
    socket.PushText(R"({"op":0,"t":"USER_UPDATE","s":2,"d":{"id":"1","n":0e99999999999}})");
    Harness::Dispatch(socket, "USER_UPDATE", 2);
    ASSERT_TRUE(h.RunUntil([&] { return h.dispatches.size() == 2; }));
    EXPECT_EQ(h.session->DiscardedMessages(), 2u);
    EXPECT_EQ(h.discardedEvents, 2);
    EXPECT_EQ(h.session->Status(), ClientStatus::Ready);
}

TEST(GatewaySession, ALoneSurrogateInReadyIsReadAsTheReplacementCharacter) {
    // Valid JSON (RFC 8259 §8.2) that nlohmann refuses: one such string used to cost the whole READY, and the client
    // stayed in Connecting forever.
    Harness h;
    h.Create();
    h.session->Start();
    FakeSocket &socket = h.WaitSocket(0);
    Harness::Hello(socket);
    ASSERT_FALSE(h.WaitSent(socket, 2).is_null());
    socket.PushText(
        R"({"op":0,"t":"READY","s":1,"d":{"v":10,"user":{"id":"42","username":"a\ud800b","global_name":"\udc00"},)"
        R"("session_id":")" +
        kSessionId + R"(","resume_gateway_url":")" + kResumeUrl + R"("}})");
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Ready));
    EXPECT_EQ(h.dispatches.at(0).second["user"]["username"],
              "a\xEF\xBF\xBD"
              "b");
    EXPECT_EQ(h.dispatches.at(0).second["user"]["global_name"], "\xEF\xBF\xBD");
    EXPECT_EQ(h.session->DiscardedMessages(), 0u);
}

TEST(GatewaySession, AReadyThatNeverComesFailsTheAttemptAndIsRetried) {
    Harness h;
    h.config.readyTimeoutMs = 30;
    h.config.maxFailedAttempts = 2;
    h.Create();
    h.session->Start();
    FakeSocket &first = h.WaitSocket(0);
    Harness::Hello(first);
    ASSERT_FALSE(h.WaitSent(first, 2).is_null());
    // No READY: the attempt is abandoned (a resumable close) and a new one identifies again.
    FakeSocket &second = h.WaitSocket(1);
    EXPECT_EQ(first.clientCloseCode, svcpp::core::gateway::kResumableClientClose);
    h.ExpectIdentify(second);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Disconnected));
    EXPECT_EQ(h.statuses.back(), (StatusEvent{ClientStatus::Disconnected, ClientError::ConnectionFailed, 0}));
    EXPECT_EQ(h.session->LastFailure().kind, net::NetFailure::TimedOut);
    EXPECT_EQ(h.sockets.size(), 2u);
}

TEST(GatewaySession, ACertificateThatDoesNotVerifyIsNotRetried) {
    Harness h;
    h.Create();
    h.session->Start();
    h.WaitSocket(0).Fail(net::NetFailure::TlsVerification);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Disconnected));
    EXPECT_EQ(h.statuses, (std::vector<StatusEvent>{Ok(ClientStatus::Connecting),
                                                    {ClientStatus::Disconnected, ClientError::ConnectionFailed, 0}}));
    EXPECT_EQ(h.session->LastFailure().kind, net::NetFailure::TlsVerification);
    h.RunFor(50ms);
    EXPECT_EQ(h.sockets.size(), 1u);
}

TEST(GatewaySession, ARefusedConnectionIsRetriedAndReportedWhenGivingUp) {
    Harness h;
    h.config.maxFailedAttempts = 2;
    h.Create();
    h.session->Start();
    h.WaitSocket(0).Fail(net::NetFailure::Refused);
    h.WaitSocket(1).Fail(net::NetFailure::Refused);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Disconnected));
    EXPECT_EQ(h.session->LastFailure().kind, net::NetFailure::Refused);
    EXPECT_EQ(h.session->LastFailure().description, "transport failed");
}

TEST(GatewaySession, LogsNeverContainTheToken) {
    Harness h;
    FakeSocket &first = h.ConnectReady();
    first.Closed(4000);
    FakeSocket &second = h.WaitSocket(1);
    h.ExpectResume(second, 1);
    Harness::Dispatch(second, "RESUMED", 2, nullptr);
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Ready, 2));
    ASSERT_FALSE(h.logs.empty());
    bool loggedClose = false;
    for (const auto &[severity, line] : h.logs) {
        EXPECT_EQ(line.find(kToken), std::string::npos) << line;
        loggedClose = loggedClose || line.find("4000") != std::string::npos;
    }
    EXPECT_TRUE(loggedClose);
}

TEST(GatewayBackoff, DoublesUpToTheMaximumWithJitter) {
    std::mt19937 rng(7);
    Backoff backoff(100, 1000);
    for (int round = 0; round < 2; ++round) {
        for (int base : {100, 200, 400, 800, 1000, 1000}) {
            const int32_t delay = backoff.Next(rng);
            EXPECT_GE(delay, base * 8 / 10);
            EXPECT_LE(delay, base * 12 / 10);
        }
        backoff.Reset();
    }
}

TEST(GatewayBackoff, InvalidSessionDelayIsOneToFiveInitials) {
    std::mt19937 rng(7);
    Backoff defaults(1000, 60000);
    Backoff small(10, 40);
    for (int i = 0; i < 200; ++i) {
        const int32_t delay = defaults.InvalidSessionDelay(rng);
        EXPECT_GE(delay, 1000);
        EXPECT_LE(delay, 5000);
        const int32_t capped = small.InvalidSessionDelay(rng);
        EXPECT_GE(capped, 10);
        EXPECT_LE(capped, 40);
    }
}

TEST(GatewayCloseCodes, Classification) {
    for (int code : {4004, 4010, 4011, 4012, 4013, 4014}) EXPECT_EQ(ClassifyClose(code), CloseAction::Terminal) << code;
    for (int code : {4007, 4009}) EXPECT_EQ(ClassifyClose(code), CloseAction::NewSession) << code;
    for (int code : {0, 1000, 1001, 1006, 4000, 4001, 4002, 4003, 4005, 4008})
        EXPECT_EQ(ClassifyClose(code), CloseAction::Resume) << code;
}

// SessionEvents::wantsData: the client answers from its dispatch table. Frames in the platform's key order (t before
// d).
TEST(GatewaySession, ADispatchNobodyWantsIsNotDeliveredButItsSequenceCounts) {
    Harness h;
    h.wantsData = [](std::string_view type) { return type != "TYPING_START"; };
    FakeSocket &socket = h.ConnectReady();
    socket.PushText(R"({"op":0,"t":"TYPING_START","d":{"user_id":"7"},"s":2})");
    socket.PushText(R"({"op":0,"t":"USER_UPDATE","d":{"id":"7"},"s":3})");
    ASSERT_TRUE(h.RunUntil([&] { return h.dispatches.size() >= 2; }));
    h.RunFor(20ms);
    ASSERT_EQ(h.dispatches.size(), 2u);
    EXPECT_EQ(h.dispatches[1].first, "USER_UPDATE");
    EXPECT_EQ(h.dispatches[1].second, (json{{"id", "7"}}));
    EXPECT_EQ(h.session->LastSequence(), 3);
    EXPECT_EQ(h.discardedEvents, 0) << "not wanted is not malformed";
}

TEST(GatewaySession, ReadyIsReadWhateverWantsDataAnswers) {
    Harness h;
    h.wantsData = [](std::string_view) { return false; };
    h.Create();
    h.session->Start();
    FakeSocket &socket = h.WaitSocket(0);
    Harness::Hello(socket);
    ASSERT_FALSE(h.WaitSent(socket, 2).is_null());
    socket.PushText(R"({"op":0,"t":"READY","d":{"v":10,"user":{"id":"42"},"session_id":")" + kSessionId +
                    R"("},"s":1})");
    ASSERT_TRUE(h.WaitStatus(ClientStatus::Ready));
    ASSERT_EQ(h.dispatches.size(), 1u);
    EXPECT_EQ(h.dispatches[0].second["user"]["id"], "42");
    EXPECT_EQ(h.session->SessionId(), kSessionId);
}
