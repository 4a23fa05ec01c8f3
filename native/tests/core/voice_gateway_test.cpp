// The voice side of a call without a network: the voice gateway client against a scripted server (a fake
// WebSocketFactory on an io_context the test runs), IP discovery packets, the choice of encryption mode and the
// close-code policy. Backoffs are tiny so every scenario takes milliseconds.
#include <gtest/gtest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "net/client_executor.hpp"
#include "voice/close_codes.hpp"
#include "voice/encryption_mode.hpp"
#include "voice/ip_discovery.hpp"
#include "voice/voice_gateway.hpp"

namespace asio = boost::asio;
namespace net = svcpp::core::net;
namespace voice = svcpp::core::voice;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

class FakeSocket : public net::WebSocket, public std::enable_shared_from_this<FakeSocket> {
  public:
    FakeSocket(asio::io_context &io, std::string url, net::WebSocketHandlers handlers)
        : url(std::move(url)), io_(io), handlers_(std::move(handlers)) {}
    void Send(std::string text) override { sent.push_back(json::parse(text)); }
    void SendBinary(std::string bytes) override { sentBinary.push_back(std::move(bytes)); }
    void Close(uint16_t code, std::string) override {
        closedByClient = code;
        Closed(code);
    }
    void Abort() override {
        aborted = true;
        Closed(0);
    }
    void Push(const json &message) {
        if (done_) return;
        asio::post(io_, [self = shared_from_this(), text = message.dump()] {
            if (!self->done_) self->handlers_.message(text);
        });
    }
    void PushBinary(std::string bytes) {
        if (done_) return;
        asio::post(io_, [self = shared_from_this(), bytes = std::move(bytes)] {
            if (!self->done_ && self->handlers_.binaryMessage) self->handlers_.binaryMessage(bytes);
        });
    }
    void Closed(int code) {
        if (done_) return;
        done_ = true;
        asio::post(io_, [self = shared_from_this(), code] { self->handlers_.closed(code, "test"); });
    }
    int CountOp(int op) const {
        int n = 0;
        for (const auto &p : sent) n += p["op"] == op;
        return n;
    }
    json LastOp(int op) const {
        for (auto it = sent.rbegin(); it != sent.rend(); ++it) {
            if ((*it)["op"] == op) return *it;
        }
        return nullptr;
    }

    std::string url;
    std::vector<json> sent;
    std::vector<std::string> sentBinary;
    int closedByClient = -1;
    bool aborted = false;

  private:
    asio::io_context &io_;
    net::WebSocketHandlers handlers_;
    bool done_ = false;
};

struct Harness {
    asio::io_context io;
    // Keeps run_for() running when no timer is pending (between a drop and the next connection).
    asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(io);
    std::vector<std::shared_ptr<FakeSocket>> sockets;
    std::vector<std::string> events;
    std::unique_ptr<voice::VoiceGateway> gateway;
    int endedCode = -1;
    bool endedAfterReady = false;

    Harness() {
        voice::VoiceGatewayConfig config;
        config.endpoint = "127.0.0.1:9999";
        config.secure = true;
        config.serverId = 77;
        config.userId = 5;
        config.sessionId = "s1";
        config.token = "voice-token";
        config.backoffInitialMs = 5;
        config.backoffMaxMs = 10;
        config.maxFailedAttempts = 3;
        config.maxDaveProtocolVersion = 1;
        voice::VoiceGatewayEvents ev;
        ev.ready = [this](const voice::VoiceReady &r) {
            events.push_back("ready " + std::to_string(r.ssrc) + " " + r.ip + ":" + std::to_string(r.port));
        };
        ev.sessionDescription = [this](const std::string &mode, const std::array<uint8_t, 32> &key, int dave) {
            events.push_back("session " + mode + " " + std::to_string(key[0]) + "," + std::to_string(key[31]));
            events.push_back("dave version " + std::to_string(dave));
        };
        ev.daveJson = [this](int op, const json &d) {
            events.push_back("dave json " + std::to_string(op) + " " + d.dump());
        };
        ev.daveBinary = [this](uint8_t op, std::vector<uint8_t> payload) {
            events.push_back("dave binary " + std::to_string(op) + " " + std::to_string(payload.size()));
        };
        ev.speaking = [this](uint64_t user, uint32_t ssrc, uint32_t flags) {
            events.push_back("speaking " + std::to_string(user) + " " + std::to_string(ssrc) + " " +
                             std::to_string(flags));
        };
        ev.clientsConnect = [this](const std::vector<uint64_t> &ids) {
            events.push_back("connect " + std::to_string(ids.size()));
        };
        ev.clientDisconnect = [this](uint64_t id) { events.push_back("disconnect " + std::to_string(id)); };
        ev.interrupted = [this](int code) { events.push_back("interrupted " + std::to_string(code)); };
        ev.resumed = [this] { events.push_back("resumed"); };
        ev.ended = [this](int code, bool afterReady) {
            endedCode = code;
            endedAfterReady = afterReady;
            events.push_back("ended " + std::to_string(code));
        };
        auto factory = [this](const std::string &url, net::WebSocketHandlers handlers) {
            auto socket = std::make_shared<FakeSocket>(io, url, std::move(handlers));
            sockets.push_back(socket);
            return socket;
        };
        gateway = std::make_unique<voice::VoiceGateway>(net::ClientExecutor(io), factory, config, ev,
                                                        [](int, std::string line) {
                                                            if (std::getenv("VOICE_TEST_LOG"))
                                                                std::fprintf(stderr, "%s\n", line.c_str());
                                                        });
    }

    bool RunUntil(const std::function<bool()> &done, std::chrono::milliseconds limit = 2s) {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (!done()) {
            if (std::chrono::steady_clock::now() >= deadline) return false;
            io.run_for(1ms);
        }
        return true;
    }
    bool Saw(const std::string &event) const { return std::find(events.begin(), events.end(), event) != events.end(); }

    FakeSocket &Socket(size_t i) {
        EXPECT_TRUE(RunUntil([&] { return sockets.size() > i; }));
        return *sockets.at(i);
    }

    /** Start → Hello → Identify → Ready on socket #0. */
    FakeSocket &Ready(int heartbeatMs = 60000) {
        gateway->Start();
        FakeSocket &s = Socket(0);
        s.Push({{"op", 8}, {"d", {{"heartbeat_interval", heartbeatMs}}}});
        EXPECT_TRUE(RunUntil([&] { return s.CountOp(0) == 1; }));
        s.Push({{"op", 2},
                {"d",
                 {{"ssrc", 1234},
                  {"ip", "127.0.0.1"},
                  {"port", 50000},
                  {"modes", {"aead_aes256_gcm_rtpsize"}},
                  {"heartbeat_interval", 1}}}});
        EXPECT_TRUE(RunUntil([&] { return Saw("ready 1234 127.0.0.1:50000"); }));
        return s;
    }
};

}  // namespace

TEST(VoiceGateway, IdentifiesWithV8AndReportsReadyAndSessionDescription) {
    Harness h;
    FakeSocket &s = h.Ready();
    EXPECT_EQ(s.url, "wss://127.0.0.1:9999/?v=8");
    const json identify = s.LastOp(0)["d"];
    EXPECT_EQ(identify["server_id"], "77");
    EXPECT_EQ(identify["user_id"], "5");
    EXPECT_EQ(identify["session_id"], "s1");
    EXPECT_EQ(identify["token"], "voice-token");
    ASSERT_TRUE(h.gateway->SelectProtocol("10.0.0.1", 4444, "aead_aes256_gcm_rtpsize"));
    const json select = s.LastOp(1)["d"];
    EXPECT_EQ(select["protocol"], "udp");
    EXPECT_EQ(select["data"]["address"], "10.0.0.1");
    EXPECT_EQ(select["data"]["port"], 4444);
    json key = json::array();
    for (int i = 0; i < 32; ++i) key.push_back(i + 1);
    s.Push({{"op", 4}, {"seq", 1}, {"d", {{"mode", "aead_aes256_gcm_rtpsize"}, {"secret_key", key}}}});
    EXPECT_TRUE(h.RunUntil([&] { return h.Saw("session aead_aes256_gcm_rtpsize 1,32"); }));
    s.Push({{"op", 11}, {"seq", 2}, {"d", {{"user_ids", {"9"}}}}});
    s.Push({{"op", 5}, {"seq", 3}, {"d", {{"user_id", "9"}, {"ssrc", 99}, {"speaking", 1}}}});
    s.Push({{"op", 13}, {"seq", 4}, {"d", {{"user_id", "9"}}}});
    EXPECT_TRUE(h.RunUntil([&] { return h.Saw("disconnect 9"); }));
    EXPECT_TRUE(h.Saw("connect 1"));
    EXPECT_TRUE(h.Saw("speaking 9 99 1"));
    EXPECT_EQ(h.gateway->LastSeq(), 4);
    ASSERT_TRUE(h.gateway->SetSpeaking(1, 1234));
    EXPECT_EQ(s.LastOp(5)["d"], json({{"speaking", 1}, {"delay", 0}, {"ssrc", 1234}}));
}

TEST(VoiceGateway, DaveOpcodesBothWaysAndBinarySequenceNumbersAreAcknowledged) {
    Harness h;
    FakeSocket &s = h.Ready();
    EXPECT_EQ(s.LastOp(0)["d"]["max_dave_protocol_version"], 1);
    json key = json::array();
    for (int i = 0; i < 32; ++i) key.push_back(i);
    s.Push(
        {{"op", 4}, {"d", {{"mode", "aead_aes256_gcm_rtpsize"}, {"secret_key", key}, {"dave_protocol_version", 1}}}});
    ASSERT_TRUE(h.RunUntil([&] { return h.Saw("dave version 1"); }));
    // Binary: u16 seq 0x0102 = 258, op 25, three payload bytes; the seq is acknowledged like a JSON one.
    s.PushBinary(std::string("\x01\x02\x19\xAA\xBB\xCC", 6));
    ASSERT_TRUE(h.RunUntil([&] { return h.Saw("dave binary 25 3"); }));
    EXPECT_EQ(h.gateway->LastSeq(), 258);
    s.PushBinary(std::string("\x01", 1));  // shorter than its header: dropped
    s.Push({{"op", 22}, {"seq", 300}, {"d", {{"transition_id", 4}}}});
    ASSERT_TRUE(h.RunUntil([&] { return h.Saw("dave json 22 {\"transition_id\":4}"); }));
    EXPECT_EQ(h.gateway->LastSeq(), 300);
    ASSERT_TRUE(h.gateway->SendDaveBinary({26, 1, 2}));
    ASSERT_EQ(s.sentBinary.size(), 1u);
    EXPECT_EQ(s.sentBinary[0], std::string("\x1A\x01\x02", 3));
    ASSERT_TRUE(h.gateway->SendDaveJson(23, {{"transition_id", 4}}));
    EXPECT_EQ(s.LastOp(23)["d"]["transition_id"], 4);
}

TEST(VoiceGateway, HeartbeatsAcknowledgeTheLastSeq) {
    Harness h;
    FakeSocket &s = h.Ready(20);
    s.Push({{"op", 5}, {"seq", 7}, {"d", {{"user_id", "9"}, {"ssrc", 99}, {"speaking", 0}}}});
    ASSERT_TRUE(h.RunUntil([&] {
        const json hb = s.LastOp(3);
        return hb.is_object() && hb["d"]["seq_ack"] == 7;
    }));
    EXPECT_TRUE(s.LastOp(3)["d"]["t"].is_number_integer());
}

TEST(VoiceGateway, ADropResumesWithSeqAck) {
    Harness h;
    FakeSocket &s = h.Ready();
    s.Push({{"op", 11}, {"seq", 3}, {"d", {{"user_ids", {"9"}}}}});
    ASSERT_TRUE(h.RunUntil([&] { return h.gateway->LastSeq() == 3; }));
    s.Closed(0);  // a network cut
    ASSERT_TRUE(h.RunUntil([&] { return h.Saw("interrupted 0"); }));
    FakeSocket &again = h.Socket(1);
    again.Push({{"op", 8}, {"d", {{"heartbeat_interval", 60000}}}});
    ASSERT_TRUE(h.RunUntil([&] { return again.CountOp(7) == 1; }));
    EXPECT_EQ(again.CountOp(0), 0);
    EXPECT_EQ(again.LastOp(7)["d"]["seq_ack"], 3);
    EXPECT_EQ(again.LastOp(7)["d"]["server_id"], "77");
    again.Push({{"op", 9}, {"d", nullptr}});
    // The replayed message after Resumed reaches the call like any other.
    again.Push({{"op", 5}, {"seq", 4}, {"d", {{"user_id", "9"}, {"ssrc", 99}, {"speaking", 1}}}});
    ASSERT_TRUE(h.RunUntil([&] { return h.Saw("speaking 9 99 1"); }));
    EXPECT_TRUE(h.Saw("resumed"));
    EXPECT_EQ(h.endedCode, -1);
}

TEST(VoiceGateway, SessionNoLongerValidIdentifiesAgain) {
    Harness h;
    FakeSocket &s = h.Ready();
    s.Closed(4006);
    FakeSocket &again = h.Socket(1);
    again.Push({{"op", 8}, {"d", {{"heartbeat_interval", 60000}}}});
    ASSERT_TRUE(h.RunUntil([&] { return again.CountOp(0) == 1; }));
    EXPECT_EQ(again.CountOp(7), 0);
    EXPECT_TRUE(h.Saw("interrupted 4006"));
}

TEST(VoiceGateway, TerminalCodesEndTheCallWithoutRetry) {
    for (int code : {4004, 4014, 4016, 4020, 4022}) {
        Harness h;
        FakeSocket &s = h.Ready();
        s.Closed(code);
        ASSERT_TRUE(h.RunUntil([&] { return h.endedCode == code; })) << code;
        EXPECT_TRUE(h.endedAfterReady);
        h.io.run_for(30ms);
        EXPECT_EQ(h.sockets.size(), 1u) << code;
        EXPECT_FALSE(h.Saw("interrupted " + std::to_string(code)));
    }
}

TEST(VoiceGateway, AFailedFirstConnectionEndsBeforeReady) {
    Harness h;
    h.gateway->Start();
    h.Socket(0).Closed(0);
    ASSERT_TRUE(h.RunUntil([&] { return h.endedCode == 0; }));
    EXPECT_FALSE(h.endedAfterReady);
}

TEST(VoiceGateway, GivesUpAfterRepeatedFailedResumes) {
    Harness h;
    h.Ready().Closed(0);
    for (size_t i = 1; i <= 3; ++i) h.Socket(i).Closed(0);
    ASSERT_TRUE(h.RunUntil([&] { return h.Saw("ended 0"); }));
    EXPECT_EQ(h.sockets.size(), 4u);
}

TEST(VoiceGateway, StopClosesWith1000AndEmitsNothing) {
    Harness h;
    FakeSocket &s = h.Ready();
    h.gateway->Stop();
    EXPECT_EQ(s.closedByClient, 1000);
    h.io.run_for(20ms);
    EXPECT_EQ(h.endedCode, -1);
    EXPECT_FALSE(h.gateway->SelectProtocol("1.2.3.4", 1, "aead_aes256_gcm_rtpsize"));
}

TEST(VoiceCloseCodes, PublishedPolicy) {
    using voice::ClassifyVoiceClose;
    using voice::VoiceCloseAction;
    EXPECT_EQ(ClassifyVoiceClose(0), VoiceCloseAction::Resume);
    EXPECT_EQ(ClassifyVoiceClose(1006), VoiceCloseAction::Resume);
    EXPECT_EQ(ClassifyVoiceClose(4015), VoiceCloseAction::Resume);
    for (int code : {4001, 4002, 4003, 4005, 4006, 4009, 4011})
        EXPECT_EQ(ClassifyVoiceClose(code), VoiceCloseAction::Reconnect) << code;
    for (int code : {4004, 4012, 4014, 4016, 4017, 4020, 4021, 4022})
        EXPECT_EQ(ClassifyVoiceClose(code), VoiceCloseAction::Terminal) << code;
}

TEST(EncryptionMode, ServerOrderAmongOnlyTheTwoRtpsizeModes) {
    EXPECT_EQ(voice::ChooseMode({"aead_xchacha20_poly1305_rtpsize", "aead_aes256_gcm_rtpsize"}),
              "aead_xchacha20_poly1305_rtpsize");
    EXPECT_EQ(voice::ChooseMode({"aead_aes256_gcm_rtpsize", "aead_xchacha20_poly1305_rtpsize"}),
              "aead_aes256_gcm_rtpsize");
    // The retired modes are never chosen, even first in the list.
    EXPECT_EQ(voice::ChooseMode({"xsalsa20_poly1305", "aead_aes256_gcm", "aead_xchacha20_poly1305_rtpsize"}),
              "aead_xchacha20_poly1305_rtpsize");
    EXPECT_EQ(voice::ChooseMode({"xsalsa20_poly1305_lite", "xsalsa20_poly1305_suffix", "aead_aes256_gcm"}),
              std::nullopt);
}

TEST(IpDiscovery, RequestAndResponse) {
    const auto request = voice::MakeDiscoveryRequest(0x01020304);
    EXPECT_EQ(request[0], 0);
    EXPECT_EQ(request[1], 1);
    EXPECT_EQ(request[3], 70);
    EXPECT_EQ(request[4], 1);
    EXPECT_EQ(request[7], 4);
    std::array<uint8_t, 74> response{};
    response[1] = 2;
    response[3] = 70;
    response[4] = 1, response[5] = 2, response[6] = 3, response[7] = 4;
    const std::string address = "192.168.1.20";
    std::copy(address.begin(), address.end(), response.begin() + 8);
    response[72] = 0xC3, response[73] = 0x50;  // 50000
    const auto parsed = voice::ParseDiscoveryResponse(response, 0x01020304);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->address, address);
    EXPECT_EQ(parsed->port, 50000);
    EXPECT_FALSE(voice::ParseDiscoveryResponse(response, 0x01020305));                       // another SSRC
    EXPECT_FALSE(voice::ParseDiscoveryResponse(std::span(response).first(73), 0x01020304));  // truncated
    auto request2 = response;
    request2[1] = 1;
    EXPECT_FALSE(voice::ParseDiscoveryResponse(request2, 0x01020304));  // a request, not a response
}
