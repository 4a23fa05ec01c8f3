// RpcProtocol without any socket: the frames it writes, and what it makes of what the local client sends —
// handshake, READY, subscriptions and replays after every READY, nonce-paired commands, events, bad frames.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "rpc/rpc_protocol.hpp"

using namespace svcpp::core::rpc;
using nlohmann::json;

namespace {

struct Harness {
    std::vector<Frame> sent;
    int ready = 0;
    int authorizeRequests = 0;
    std::vector<std::string> joins;
    std::vector<std::string> logs;
    RpcProtocol protocol{[this](std::string bytes) {
                             FrameDecoder decoder;
                             decoder.Feed(bytes);
                             while (auto f = decoder.Next()) sent.push_back(*f);
                         },
                         ProtocolEvents{[this] { ++ready; }, [this] { ++authorizeRequests; },
                                        [this](std::string secret) { joins.push_back(std::move(secret)); },
                                        [this](std::string line) { logs.push_back(std::move(line)); }}};

    json SentJson(std::size_t i) const { return json::parse(sent.at(i).body); }
    bool Feed(const json &payload) { return protocol.Received(EncodeFrame(Opcode::Frame, payload.dump())); }
    bool FeedReady() {
        return Feed({{"cmd", "DISPATCH"}, {"evt", "READY"}, {"data", {{"v", 1}, {"user", {{"id", "1"}}}}}});
    }
    void Connect() {
        protocol.Opened(42);
        ASSERT_TRUE(FeedReady());
    }
};

}  // namespace

TEST(RpcProtocol, HandshakesWithTheApplicationIdAsAStringAndVersion1) {
    Harness h;
    h.protocol.Opened(1234567890123456789ull);
    ASSERT_EQ(h.sent.size(), 1u);
    EXPECT_EQ(h.sent[0].opcode, Opcode::Handshake);
    EXPECT_EQ(h.SentJson(0), (json{{"v", 1}, {"client_id", "1234567890123456789"}}));
    EXPECT_EQ(h.protocol.GetState(), RpcProtocol::State::Handshaking);
    ASSERT_TRUE(h.FeedReady());
    EXPECT_EQ(h.protocol.GetState(), RpcProtocol::State::Ready);
    EXPECT_EQ(h.ready, 1);
}

TEST(RpcProtocol, CommandsWithoutAReadyConnectionFailAtOnceAndSendNothing) {
    Harness h;
    CommandOutcome outcome;
    h.protocol.Command("OPEN_MESSAGE", json::object(), [&](CommandOutcome o) { outcome = std::move(o); });
    EXPECT_FALSE(outcome.ok);
    EXPECT_EQ(outcome.code, kNotConnected);
    h.protocol.Opened(42);  // handshaking is not enough
    h.protocol.Command("OPEN_MESSAGE", json::object(), [&](CommandOutcome o) { outcome = std::move(o); });
    EXPECT_EQ(outcome.code, kNotConnected);
    EXPECT_EQ(h.sent.size(), 1u);  // the handshake only
}

TEST(RpcProtocol, PairsResponsesWithCommandsByNonceInAnyOrder) {
    Harness h;
    h.Connect();
    std::vector<CommandOutcome> outcomes(2);
    h.protocol.Command("A", json{{"x", 1}}, [&](CommandOutcome o) { outcomes[0] = std::move(o); });
    h.protocol.Command("B", json::object(), [&](CommandOutcome o) { outcomes[1] = std::move(o); });
    ASSERT_EQ(h.sent.size(), 3u);
    const json a = h.SentJson(1), b = h.SentJson(2);
    EXPECT_EQ(a["cmd"], "A");
    EXPECT_EQ(a["args"], (json{{"x", 1}}));
    EXPECT_NE(a["nonce"], b["nonce"]);
    ASSERT_TRUE(h.Feed({{"cmd", "B"},
                        {"evt", "ERROR"},
                        {"nonce", b["nonce"]},
                        {"data", {{"code", 4002}, {"message", "Invalid command: B"}}}}));
    ASSERT_TRUE(h.Feed({{"cmd", "A"}, {"evt", nullptr}, {"nonce", a["nonce"]}, {"data", {{"done", true}}}}));
    EXPECT_TRUE(outcomes[0].ok);
    EXPECT_EQ(outcomes[0].data, (json{{"done", true}}));
    EXPECT_FALSE(outcomes[1].ok);
    EXPECT_EQ(outcomes[1].code, 4002);
    EXPECT_EQ(outcomes[1].message, "Invalid command: B");
}

TEST(RpcProtocol, SubscriptionsAndReplaysAreSentAfterEveryReadyAndChangesAtOnce) {
    Harness h;
    h.protocol.SetSubscribed("AUTHORIZE_REQUEST", true);
    h.protocol.SetReplayed("chat", "SET_SHOWING_CHAT", json{{"showing", true}});
    EXPECT_TRUE(h.sent.empty());  // nothing to send to before a connection
    for (int connection = 0; connection < 2; ++connection) {
        h.sent.clear();
        h.Connect();
        ASSERT_EQ(h.sent.size(), 3u) << "connection " << connection;
        EXPECT_EQ(h.SentJson(1)["cmd"], "SUBSCRIBE");
        EXPECT_EQ(h.SentJson(1)["evt"], "AUTHORIZE_REQUEST");
        EXPECT_EQ(h.SentJson(2)["cmd"], "SET_SHOWING_CHAT");
        EXPECT_EQ(h.SentJson(2)["args"], (json{{"showing", true}}));
        h.protocol.Lost();
    }
    h.Connect();
    h.sent.clear();
    h.protocol.SetSubscribed("ACTIVITY_JOIN", true);
    h.protocol.SetSubscribed("ACTIVITY_JOIN", true);  // no change: nothing sent
    h.protocol.SetSubscribed("AUTHORIZE_REQUEST", false);
    h.protocol.SetReplayed("chat", "SET_SHOWING_CHAT", json{{"showing", false}});
    ASSERT_EQ(h.sent.size(), 3u);
    EXPECT_EQ(h.SentJson(0)["cmd"], "SUBSCRIBE");
    EXPECT_EQ(h.SentJson(1)["cmd"], "UNSUBSCRIBE");
    EXPECT_EQ(h.SentJson(1)["evt"], "AUTHORIZE_REQUEST");
    EXPECT_EQ(h.SentJson(2)["args"], (json{{"showing", false}}));
    EXPECT_EQ(h.protocol.WantedSubscriptions(), (std::set<std::string>{"ACTIVITY_JOIN"}));
    // The next connection replays only the latest value of the key.
    h.protocol.Lost();
    h.sent.clear();
    h.Connect();
    ASSERT_EQ(h.sent.size(), 3u);
    EXPECT_EQ(h.SentJson(2)["args"], (json{{"showing", false}}));
}

TEST(RpcProtocol, DeliversJoinAndAuthorizeRequestEventsAndIgnoresOthers) {
    Harness h;
    h.Connect();
    ASSERT_TRUE(h.Feed({{"cmd", "DISPATCH"}, {"evt", "ACTIVITY_JOIN"}, {"data", {{"secret", "s3cr3t"}}}}));
    ASSERT_TRUE(h.Feed({{"cmd", "DISPATCH"}, {"evt", "AUTHORIZE_REQUEST"}, {"data", json::object()}}));
    ASSERT_TRUE(
        h.Feed({{"cmd", "DISPATCH"}, {"evt", "ACTIVITY_JOIN"}, {"data", {{"secret", 5}}}}));  // not a string: ignored
    ASSERT_TRUE(h.Feed({{"cmd", "DISPATCH"}, {"evt", "GUILD_STATUS"}, {"data", json::object()}}));
    EXPECT_EQ(h.joins, std::vector<std::string>{"s3cr3t"});
    EXPECT_EQ(h.authorizeRequests, 1);
    EXPECT_EQ(h.logs.size(), 2u);
}

TEST(RpcProtocol, AnswersPingWithPongCarryingTheSamePayload) {
    Harness h;
    h.Connect();
    ASSERT_TRUE(h.protocol.Received(EncodeFrame(Opcode::Ping, R"({"n":7})")));
    ASSERT_EQ(h.sent.back().opcode, Opcode::Pong);
    EXPECT_EQ(h.sent.back().body, R"({"n":7})");
}

TEST(RpcProtocol, BadFramesEndTheConnectionWithAReason) {
    struct Case {
        std::string bytes;
        std::string reason;
        bool afterReady;
    };
    const std::vector<Case> cases{
        {EncodeFrame(Opcode::Frame, "not json"), "the local client sent a FRAME that is not a JSON object", true},
        {EncodeFrame(Opcode::Frame, "[1,2]"), "the local client sent a FRAME that is not a JSON object", true},
        {EncodeFrame(Opcode::Handshake, "{}"), "the local client sent a HANDSHAKE", true},
        {EncodeFrame(Opcode::Close, R"({"code":4000,"message":"Invalid Client ID"})"),
         "the local client closed the connection: 4000 Invalid Client ID", false},
        {EncodeFrame(Opcode::Frame, R"({"cmd":"DISPATCH","evt":"ERROR","data":{}})"),
         "the local client answered the HANDSHAKE with ERROR instead of READY", false},
        {std::string("\x09\0\0\0\0\0\0\0", 8), "unreadable stream from the local client: unknown opcode 9", true},
        {std::string("\x01\0\0\0\x01\0\x01\0", 8),
         "unreadable stream from the local client: frame too large: 65537 bytes (at most 65536)", true},
    };
    for (const auto &c : cases) {
        Harness h;
        if (c.afterReady)
            h.Connect();
        else
            h.protocol.Opened(42);
        CommandOutcome outcome;
        if (c.afterReady) h.protocol.Command("X", json::object(), [&](CommandOutcome o) { outcome = std::move(o); });
        EXPECT_FALSE(h.protocol.Received(c.bytes)) << c.reason;
        EXPECT_EQ(h.protocol.DropReason(), c.reason);
        h.protocol.Lost();
        EXPECT_EQ(h.protocol.GetState(), RpcProtocol::State::Idle);
        if (c.afterReady) EXPECT_EQ(outcome.code, kConnectionLost) << c.reason;  // the waiting command fails
    }
}

TEST(RpcProtocol, AnAnswerWithAnUnknownNonceIsIgnoredAndARefusedReplayIsLogged) {
    Harness h;
    h.protocol.SetReplayed("launch:1", "REGISTER_LAUNCH_COMMAND", json{{"command", "x"}});
    h.Connect();
    const json replay = h.SentJson(1);
    ASSERT_TRUE(h.Feed({{"cmd", "X"}, {"nonce", "nobody"}, {"data", nullptr}}));
    ASSERT_TRUE(h.Feed({{"cmd", "REGISTER_LAUNCH_COMMAND"},
                        {"evt", "ERROR"},
                        {"nonce", replay["nonce"]},
                        {"data", {{"code", 4000}, {"message", "args.command: too long"}}}}));
    ASSERT_EQ(h.logs.size(), 1u);
    EXPECT_EQ(h.logs[0], "local client refused REGISTER_LAUNCH_COMMAND: args.command: too long");
    EXPECT_EQ(h.protocol.GetState(), RpcProtocol::State::Ready);
}
