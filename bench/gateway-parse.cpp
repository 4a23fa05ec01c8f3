// The core's gateway hot path, frame by frame (asserts nothing):
//   1. the full path a received text frame takes in the client: the WebSocket's message handler → gateway::Session
//      (JSON parse, envelope, sequence) → the one DispatchTable → the area services' reducers (caches updated, events
//      posted to their slots) → the callback queue drained into no-op host callbacks. Per kind of frame:
//      frames/s, ns/frame, heap allocations/frame (counted by this program's own operator new);
//   2. the JSON parse alone, for the options weighed in docs/gateway-hot-path.md: nlohmann's own parse of the whole
//      frame into its DOM (what the session did first), net::JsonReader's DOM of the whole frame (Boost.JSON's lexer,
//      nlohmann values: net::ParseJson, what every HTTP answer takes), the session's frame reader
//      (gateway/frame_reader.hpp: JsonReader with op/t/s routed as the text goes by, only `d` built), nlohmann's lexer
//      building nothing (the floor of any nlohmann-based reading), and — when the build found Debian's libsimdjson-dev
//      — simdjson's DOM parser (a reused parser, so its buffers are not counted per frame).
//   build/Release/svcpp_bench_gateway_parse [--smoke] [--only <frame kind>]
//        (--smoke: a few hundred frames, well under a second; --only LOBBY: the kinds whose name begins so, to profile)
// Times are the CPU time of the benchmark's thread, best of three runs.
// Frames are shaped like the platform's (platform/src/gateway/frames.ts: {"op":0,"t":…,"d":…,"s":N}). Figures measured
// while other jobs load the machine are indicative only.
#include <time.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "gateway/session.hpp"
#include "lobbies/lobbies_service.hpp"
#include "messages/messages_service.hpp"
#include "gateway/frame_reader.hpp"
#include "net/client_executor.hpp"
#include "net/json_text.hpp"
#include "presence/presence_service.hpp"
#include "relationships/relationships_service.hpp"
#include "runtime/callback_queue.hpp"
#include "runtime/dispatch_table.hpp"
#include "runtime/service_host.hpp"
#include "users/users_service.hpp"

#ifdef SVCPP_BENCH_SIMDJSON
#include <simdjson.h>
#endif

// ---- allocation counting: every operator new of this program (the core is linked statically into it) --------------

namespace {
std::atomic<uint64_t> gAllocations{0};
}

void *operator new(std::size_t size) {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    if (void *p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
void *operator new[](std::size_t size) { return operator new(size); }
void *operator new(std::size_t size, const std::nothrow_t &) noexcept {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size ? size : 1);
}
void *operator new[](std::size_t size, const std::nothrow_t &tag) noexcept { return operator new(size, tag); }
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }

using namespace svcpp::core;
namespace asio = boost::asio;

namespace {

// CPU time of this thread: the machine is shared, and time spent preempted is not the path's cost.
double NowNs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

// ---- realistic frames ------------------------------------------------------------------------------------------

std::string Snowflake(uint64_t n) { return "\"" + std::to_string(100000000000000000ull + n) + "\""; }

std::string UserJson(uint64_t n) {
    return R"({"id":)" + Snowflake(n) + R"(,"username":"player_)" + std::to_string(n) + R"(","global_name":"Player )" +
           std::to_string(n) + R"(","discriminator":"0","avatar":"a_4f1c2e3d4b5a69788796a5b4c3d2e1f0","bot":false,)" +
           R"("is_provisional":false,"primary_guild":{"identity_enabled":true,"tag":"GG","identity_guild_id":)" +
           Snowflake(7) + "}}";
}

std::string ActivityJson() {
    return R"({"type":0,"name":"Bench Quest","application_id":"500","state":"In a match","details":"Ranked 2v2",)"
           R"("timestamps":{"start":1700000000000},"party":{"id":"party-42","size":[2,4]},)"
           R"("assets":{"large_image":"map_forest","large_text":"Forest"}})";
}

std::string PresenceJson(uint64_t n, bool playing) {
    return R"({"user":{"id":)" + Snowflake(n) + R"(},"status":")" + (n % 3 ? "online" : "idle") +
           R"(","activities":[)" + (playing ? ActivityJson() : "") + R"(],"client_status":{"desktop":"online"}})";
}

std::string ReadyData(int users) {
    std::string relationships, presences;
    for (int i = 1; i <= users; ++i) {
        if (i > 1) relationships += ",", presences += ",";
        relationships += R"({"id":)" + Snowflake(i) + R"(,"type":1,"game_type":)" + std::to_string(i % 2) +
                         R"(,"is_spam_request":false,"since":"2024-01-01T00:00:00.000Z","user":)" + UserJson(i) + "}";
        presences += PresenceJson(i, i % 4 == 0);
    }
    std::string members;
    for (int i = 0; i < 8; ++i) {
        if (i) members += ",";
        members += R"({"id":)" + Snowflake(i ? i : 999) +
                   R"(,"connected":true,"flags":0,"metadata":{"team":"red"},"user":)" + UserJson(i ? i : 999) + "}";
    }
    return R"({"v":10,"user":)" + UserJson(999) + R"(,"guilds":[],"lobbies":[{"id":)" + Snowflake(5000) +
           R"(,"application_id":"500","metadata":{"mode":"ranked"},"members":[)" + members +
           R"(]}],"relationships":[)" + relationships + R"(],"game_relationships":[],"presences":[)" + presences +
           R"(],"private_channels":[],"session_id":"0123456789abcdef0123456789abcdef",)"
           R"("resume_gateway_url":"ws://127.0.0.1:8787/gateway","application":{"id":"500","flags":0}})";
}

std::string LobbyMessageJson(uint64_t n) {
    return R"({"id":)" + Snowflake(900000 + n) + R"(,"lobby_id":)" + Snowflake(5000) + R"(,"channel_id":)" +
           Snowflake(5000) +
           R"(,"content":"gg, one more round? meet at the north gate in 30 s","timestamp":"2026-11-24T10:00:00.000Z",)"
           R"("edited_timestamp":null,"author":)" +
           UserJson(3) + R"(,"metadata":{"kind":"chat"},"lobby_member":{"id":)" + Snowflake(3) + "}}";
}

std::string DirectMessageJson(uint64_t n) {
    return R"({"id":)" + Snowflake(800000 + n) + R"(,"channel_id":)" + Snowflake(6000) +
           R"(,"channel_type":1,"recipient_id":)" + Snowflake(999) +
           R"(,"content":"are you coming online tonight?","timestamp":"2026-11-24T10:00:00.000Z",)"
           R"("edited_timestamp":null,"sent_from_game":true,"author":)" +
           UserJson(4) + "}";
}

std::string Dispatch(const std::string &type, const std::string &data, int64_t seq) {
    return R"({"op":0,"t":")" + type + R"(","d":)" + data + R"(,"s":)" + std::to_string(seq) + "}";
}

struct FrameKind {
    const char *name;
    std::function<std::string(int64_t seq, int i)> make;  // a frame with this sequence number (the i-th of its run)
};

std::vector<FrameKind> Kinds(int readyUsers) {
    const std::string ready = ReadyData(readyUsers);
    return {
        {"READY (relationships + presences)", [ready](int64_t s, int) { return Dispatch("READY", ready, s); }},
        {"USER_UPDATE", [](int64_t s, int i) { return Dispatch("USER_UPDATE", UserJson(1 + i % 200), s); }},
        {"PRESENCE_UPDATE",
         [](int64_t s, int i) { return Dispatch("PRESENCE_UPDATE", PresenceJson(1 + i % 200, i % 2), s); }},
        {"LOBBY_MESSAGE_CREATE",
         [](int64_t s, int i) { return Dispatch("LOBBY_MESSAGE_CREATE", LobbyMessageJson(i), s); }},
        {"MESSAGE_CREATE", [](int64_t s, int i) { return Dispatch("MESSAGE_CREATE", DirectMessageJson(i), s); }},
        {"heartbeat ACK (op 11)", [](int64_t, int) { return std::string(R"({"op":11,"d":null,"s":null,"t":null})"); }},
    };
}

// ---- the full path ---------------------------------------------------------------------------------------------

class NullSocket : public net::WebSocket {
  public:
    void Send(std::string) override {}
    void SendBinary(std::string) override {}
    void Close(uint16_t, std::string) override {}
    void Abort() override {}
};

/** The area services' host of a path that runs dispatches only: no operation is ever called on it. */
class DispatchOnlyHost final : public ServiceHost {
  public:
    explicit DispatchOnlyHost(CallbackQueue &queue) : ops_(queue), log_(queue) {}
    std::string Token() const override { return {}; }
    std::optional<ClientResult> NotReady() const override { Refuse(); }
    void Rest(net::HttpRequest, net::HttpDone) override { Refuse(); }
    void Post(std::function<void()>) override { Refuse(); }
    void RunAfter(std::chrono::milliseconds, std::function<void()>) override { Refuse(); }
    const net::ClientExecutor &IoExecutor() override { Refuse(); }
    const std::string &ApiBase() const override { return base_; }
    const std::string &WebBase() const override { return base_; }
    uint64_t GetApplicationId() const override { return 500; }
    Operations &Ops() override { return ops_; }
    Logger &Log() override { return log_; }

  private:
    [[noreturn]] static void Refuse() { throw std::logic_error("the dispatch bench calls no operation"); }
    std::string base_ = "https://api.invalid";
    Operations ops_;
    Logger log_;
};

/** The client's dispatch half without its threads: the session, the one table and the area services. */
struct ClientPath {
    asio::io_context io;  // never run: the session's timers stay armed, nothing fires
    CallbackQueue queue;
    DispatchOnlyHost host{queue};
    users::UsersService users{queue, "https://cdn.invalid"};
    lobbies::LobbiesService lobbies{queue, host, users.Cache(), [] { return CacheRefs{}; }};
    messages::MessagesService messages{queue, host, users.Cache(), lobbies.Cache(), [] { return CacheRefs{}; }};
    relationships::RelationshipsService relationships{queue, host, users.Cache()};
    presence::PresenceService presence{queue,
                                       host,
                                       users,
                                       relationships,
                                       [] { return uint64_t{500}; },
                                       [](const nlohmann::json &, std::function<void(ClientResult)>) { return false; }};
    DispatchTable table;
    net::WebSocketHandlers handlers;
    std::unique_ptr<gateway::Session> session;
    uint64_t delivered = 0;

    ClientPath() {
        // Registered in the client's order (client/client.cpp); every slot set, so the events are really queued.
        users.Register(table);
        messages.Register(table);
        lobbies.Register(table);
        relationships.Register(table);
        presence.Register(table);
        users.Updated().Set({[this](uint64_t) { ++delivered; }, {}});
        messages.Created().Set({[this](uint64_t) { ++delivered; }, {}});
        lobbies.Created().Set({[this](uint64_t) { ++delivered; }, {}});
        lobbies.Deleted().Set({[this](uint64_t) { ++delivered; }, {}});
        relationships.GroupsUpdated().Set({[this](uint64_t) { ++delivered; }, {}});
        gateway::SessionEvents events;
        events.status = [](ClientStatus, ClientError, int32_t) {};
        events.dispatch = [this](std::string_view type, const nlohmann::json &data) { table.Dispatch(type, data); };
        events.wantsData = [this](std::string_view type) { return table.Handles(type); };
        gateway::SessionConfig config;
        config.url = "ws://127.0.0.1:1/gateway";
        config.token = "bench";
        session = std::make_unique<gateway::Session>(
            net::ClientExecutor(io),
            [this](const std::string &, net::WebSocketHandlers h) {
                handlers = std::move(h);
                return std::make_shared<NullSocket>();
            },
            config, events, nullptr);
        session->Start();
        handlers.open();
        handlers.message(R"({"op":10,"d":{"heartbeat_interval":45000},"s":null,"t":null})");
    }

    void Frame(std::string text) {
        handlers.message(std::move(text));
        queue.Run([] { return false; });
    }
};

struct Figures {
    double nsPerFrame;
    double allocsPerFrame;
};

void Print(const char *what, const char *name, size_t bytes, Figures f) {
    std::printf("  %-10s %-36s %7zu B  %12.0f frames/s  %10.0f ns/frame  %8.1f allocs/frame\n", what, name, bytes,
                1e9 / f.nsPerFrame, f.nsPerFrame, f.allocsPerFrame);
}

Figures FullPathOnce(const FrameKind &kind, int count) {
    ClientPath path;
    int64_t seq = 1;
    path.Frame(kind.make(seq++, 0));  // warm up: READY-like caches and code paths
    if (std::strncmp(kind.name, "READY", 5) != 0) path.Frame(Dispatch("READY", ReadyData(200), seq++));
    std::vector<std::string> frames;  // built beforehand: the WebSocket hands the session a std::string it owns
    frames.reserve(count);
    for (int i = 0; i < count; ++i) frames.push_back(kind.make(seq++, i + 1));
    const uint64_t a0 = gAllocations.load();
    const double t0 = NowNs();
    for (auto &frame : frames) path.Frame(std::move(frame));
    const double t1 = NowNs();
    const uint64_t a1 = gAllocations.load();
    return {(t1 - t0) / count, double(a1 - a0) / count};
}

/** The best of a few runs: what the path costs when the machine leaves it alone. */
template <class Run>
Figures Best(int runs, Run run) {
    Figures best = run();
    for (int i = 1; i < runs; ++i) {
        const Figures f = run();
        if (f.nsPerFrame < best.nsPerFrame) best = f;
    }
    return best;
}

Figures FullPath(const FrameKind &kind, int count, int runs) {
    return Best(runs, [&] { return FullPathOnce(kind, count); });
}

// ---- the parse alone -------------------------------------------------------------------------------------------

/** A SAX handler that builds nothing: what nlohmann's lexer and parser cost without any DOM. */
struct NothingBuilt {
    using json = nlohmann::json;
    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(json::number_integer_t) { return true; }
    bool number_unsigned(json::number_unsigned_t) { return true; }
    bool number_float(json::number_float_t, const json::string_t &) { return true; }
    bool string(json::string_t &) { return true; }
    bool binary(json::binary_t &) { return true; }
    bool start_object(std::size_t) { return true; }
    bool end_object() { return true; }
    bool start_array(std::size_t) { return true; }
    bool end_array() { return true; }
    bool key(json::string_t &) { return true; }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) { return false; }
};

template <class Parse>
Figures ParseOnlyOnce(const std::vector<std::string> &frames, int rounds, Parse parse) {
    size_t sink = 0;
    parse(frames.front(), sink);  // warm up
    const uint64_t a0 = gAllocations.load();
    const double t0 = NowNs();
    for (int r = 0; r < rounds; ++r)
        for (const auto &frame : frames) parse(frame, sink);
    const double t1 = NowNs();
    const uint64_t a1 = gAllocations.load();
    if (sink == 42) std::puts("");  // keeps the work observable
    const double n = double(rounds) * frames.size();
    return {(t1 - t0) / n, double(a1 - a0) / n};
}

template <class Parse>
Figures ParseOnly(const std::vector<std::string> &frames, int rounds, Parse parse) {
    return Best(3, [&] { return ParseOnlyOnce(frames, rounds, parse); });
}

void ParseAlternatives(const FrameKind &kind, int count) {
    std::vector<std::string> frames;
    const int distinct = std::min(count, 64);
    for (int i = 0; i < distinct; ++i) frames.push_back(kind.make(i + 1, i));
    const int rounds = std::max(1, count / distinct);
    Print("nlohmann", kind.name, frames.front().size(),
          ParseOnly(frames, rounds, [](const std::string &text, size_t &sink) {
              const nlohmann::json frame = nlohmann::json::parse(text, nullptr, false);
              sink += frame.size();
          }));
    Print("reader dom", kind.name, frames.front().size(),
          ParseOnly(frames, rounds, [](const std::string &text, size_t &sink) {
              const nlohmann::json frame = net::ParseJson(text);
              sink += frame.size();
          }));
    gateway::FrameReader reader;
    gateway::Frame frame;
    Print("envelope", kind.name, frames.front().size(),
          ParseOnly(frames, rounds, [&](const std::string &text, size_t &sink) {
              if (reader.Read(text, frame)) sink += frame.data.size() + size_t(frame.op.value_or(0));
          }));
    Print("lex only", kind.name, frames.front().size(),
          ParseOnly(frames, rounds, [](const std::string &text, size_t &sink) {
              NothingBuilt nothing;
              sink += nlohmann::json::sax_parse(text, &nothing) ? 1 : 0;
          }));
#ifdef SVCPP_BENCH_SIMDJSON
    simdjson::dom::parser parser;
    Print("simdjson", kind.name, frames.front().size(),
          ParseOnly(frames, rounds, [&parser](const std::string &text, size_t &sink) {
              simdjson::dom::element doc;
              if (parser.parse(text).get(doc) == simdjson::SUCCESS) sink += doc["op"].get_int64().value_unsafe() + 1;
          }));
#endif
}

}  // namespace

int main(int argc, char **argv) {
    bool smoke = false;
    const char *only = nullptr;  // a frame kind's name, or its beginning: that kind alone (to profile its path)
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--smoke") == 0)
            smoke = true;
        else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else
            return std::fprintf(stderr, "usage: %s [--smoke] [--only <frame kind>]\n", argv[0]), 2;
    }
    const int readyUsers = smoke ? 50 : 300;
    const int small = smoke ? 200 : 20000;
    const int readies = smoke ? 3 : 50;
    auto kinds = Kinds(readyUsers);
    if (only) {
        std::erase_if(kinds,
                      [only](const FrameKind &kind) { return std::strncmp(kind.name, only, std::strlen(only)) != 0; });
    }

    std::printf(
        "gateway frames through the client's path (bytes → session → dispatch table → reducers → queue → no-op"
        " callbacks)%s\n",
        smoke ? " [smoke]" : "");
    std::printf(
        "  READY carries %d relationships and %d presences; figures are indicative while other jobs load the machine\n",
        readyUsers, readyUsers);
    for (const auto &kind : kinds) {
        const bool ready = std::strncmp(kind.name, "READY", 5) == 0;
        Print("full path", kind.name, kind.make(1, 0).size(), FullPath(kind, ready ? readies : small, smoke ? 1 : 3));
    }
    std::printf(
        "the JSON parse alone: nlohmann = its parse of the whole frame (the first reading), reader dom ="
        " net::JsonReader's DOM of the whole frame, envelope = the frame reader: op/t/s routed, DOM of d only (now),"
        " lex only = nlohmann's parser building nothing%s\n",
#ifdef SVCPP_BENCH_SIMDJSON
        ", simdjson = its DOM parser, reused"
#else
        " (simdjson not measured: the build did not find libsimdjson-dev)"
#endif
    );
    for (const auto &kind : kinds) {
        const bool ready = std::strncmp(kind.name, "READY", 5) == 0;
        ParseAlternatives(kind, ready ? readies : small);
    }
    return 0;
}
