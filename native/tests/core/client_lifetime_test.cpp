// Clients that come and go on the process's shared I/O threads (net/io_thread.hpp, native/SEMANTICS.md "Threads"):
// whole core::Clients, against an in-process HTTP + WebSocket server, dropped while a request is in flight, while
// connecting and with a timer armed, while other clients on the same threads keep completing requests; and no I/O
// thread is left once the last client is gone.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "client/client.hpp"
#include "net/io_thread.hpp"
#include "net_test_server.hpp"
#include "thread_census.hpp"

using namespace svcpp::core;
using namespace svcpp::test;

namespace {

/** Threads of this process named svcpp-io (the I/O threads), as the system reports them. */
int IoThreadsRunning() { return CountThreadsNamed("svcpp-io"); }

/**
 * The platform's side, just enough of it: GET /oauth2/@me names an expiry far away (the client arms its token-expiry
 * timer), GET /gateway names the server's WebSocket (an echo that never says HELLO: the client stays connecting,
 * with its HELLO timer armed), GET /users/@me answers at once for the token "steady" and never for "hang".
 */
ServerReply Platform(const ServerRequest &request, uint16_t port) {
    if (request.target == "/api/v10/oauth2/@me") return ServerReply{200, R"({"expires":"2999-01-01T00:00:00Z"})"};
    if (request.target == "/api/v10/gateway")
        return ServerReply{200, R"({"url":"ws://127.0.0.1:)" + std::to_string(port) + R"(/gateway"})"};
    if (request.target == "/api/v10/users/@me") {
        auto auth = request.headers.find("authorization");
        if (auth != request.headers.end() && auth->second == "Bearer hang") {
            ServerReply reply;
            reply.silent = true;
            return reply;
        }
        return ServerReply{200,
                           R"({"id":"5","username":"steady","discriminator":"0","global_name":null,"avatar":null})"};
    }
    return ServerReply{404, "{}"};
}

class ClientLifetime : public ::testing::Test {
  protected:
    ClientLifetime()
        : server_([this](const ServerRequest &request) {
              if (request.target == "/api/v10/users/@me") ++userRequests_;
              return Platform(request, port_.load());
          }) {
        port_.store(server_.Port());
    }

    std::shared_ptr<Client> NewClient() {
        ClientCreateOptions options;
        options.apiBase = "http://127.0.0.1:" + std::to_string(server_.Port()) + "/api/v10";
        options.webBase = "http://127.0.0.1:" + std::to_string(server_.Port());
        options.ipcPath = "/nonexistent/svcpp-test-ipc";  // no local client
        return Client::Create(options);
    }

    /** One GET /users/@me with `token`; the completion's outcome once RunCallbacks delivered it. */
    struct Fetch {
        std::shared_ptr<std::atomic<int>> outcome =
            std::make_shared<std::atomic<int>>(-1);  // -1 pending, else ErrorType
        std::shared_ptr<std::atomic<uint64_t>> userId = std::make_shared<std::atomic<uint64_t>>(0);
    };
    static Fetch StartFetch(Client &client, const std::string &token) {
        Fetch fetch;
        client.Auth().FetchCurrentUser(
            AuthorizationTokenType::Bearer, token,
            ClientFetchCurrentUserCallback{[fetch](const ClientResult &result, uint64_t id, std::string_view) {
                fetch.userId->store(id);
                fetch.outcome->store(static_cast<int>(result.type));
            }});
        return fetch;
    }

    std::atomic<uint16_t> port_{0};
    std::atomic<int> userRequests_{0};
    TestServer server_;
};

// Rounds of short-lived clients, each dropped in another state, while four steady clients (sharing the same I/O
// threads) complete a request every round: each steady request completes, each dropped client's in-flight request
// ends with ClientDestroyed, and once every client is gone no I/O thread is left.
TEST_F(ClientLifetime, ClientsDroppedInEveryStateLeaveTheOthersWorking) {
    std::vector<std::shared_ptr<Client>> steady;
    for (int i = 0; i < 4; ++i) steady.push_back(NewClient());

    for (int round = 0; round < 15; ++round) {
        std::vector<Fetch> steadyFetches;
        for (auto &client : steady) steadyFetches.push_back(StartFetch(*client, "steady"));

        // Dropped right after its creation (its I/O thread may not have run a handler of it yet).
        NewClient()->Destroy();

        // Dropped while connecting: the token-expiry timer and the gateway's HELLO timer are armed.
        auto connecting = NewClient();
        connecting->UpdateToken(AuthorizationTokenType::Bearer, "connecting",
                                ClientUpdateTokenCallback{[](const ClientResult &) {}});
        connecting->Connect();

        // Dropped while its request is in flight (the server never answers it).
        auto waiting = NewClient();
        const int requestsBefore = userRequests_.load();
        Fetch hung = StartFetch(*waiting, "hang");

        ASSERT_TRUE(Eventually([&] { return connecting->GetStatus() == ClientStatus::Connecting; }))
            << "round " << round;
        ASSERT_TRUE(Eventually([&] { return userRequests_.load() > requestsBefore; })) << "round " << round;
        if (round % 2 == 0) {
            connecting->Destroy();
            waiting->Destroy();
        } else {
            waiting->Destroy();
            connecting->Destroy();
        }
        // The in-flight request ended with the client, as ClientDestroyed, delivered by the Drop itself.
        EXPECT_EQ(hung.outcome->load(), static_cast<int>(ErrorType::ClientDestroyed)) << "round " << round;
        connecting.reset();
        waiting.reset();

        for (size_t i = 0; i < steady.size(); ++i) {
            ASSERT_TRUE(Eventually([&] {
                steady[i]->RunCallbacks();
                return steadyFetches[i].outcome->load() != -1;
            })) << "round "
                << round << ", steady client " << i;
            EXPECT_EQ(steadyFetches[i].outcome->load(), static_cast<int>(ErrorType::None));
            EXPECT_EQ(steadyFetches[i].userId->load(), 5u);
        }
    }

    EXPECT_GE(IoThreadsRunning(), 1);
    for (auto &client : steady) client->Destroy();
    steady.clear();
    EXPECT_EQ(net::IoThread::SharedThreadsRunning(), 0u);
    // Joined already; /proc lists a joined thread until the kernel has released it, a moment later.
    EXPECT_TRUE(Eventually([] { return IoThreadsRunning() == 0; }));
}

// A client created with a CPU affinity mask has an I/O thread of its own; it ends with its Drop like the pool's.
TEST_F(ClientLifetime, AClientPinnedToCpusHasItsOwnIoThread) {
    auto shared = NewClient();
    ASSERT_TRUE(Eventually([] { return IoThreadsRunning() == 1; }));
    ClientCreateOptions options;
    options.apiBase = "http://127.0.0.1:" + std::to_string(server_.Port()) + "/api/v10";
    options.cpuAffinityMask = 1u;
    auto pinned = Client::Create(options);
    EXPECT_EQ(net::IoThread::SharedThreadsRunning(), 1u);  // the pinned client did not join the pool
    EXPECT_TRUE(Eventually([] { return IoThreadsRunning() == 2; }));
    Fetch fetch = StartFetch(*pinned, "steady");
    ASSERT_TRUE(Eventually([&] {
        pinned->RunCallbacks();
        return fetch.outcome->load() != -1;
    }));
    EXPECT_EQ(fetch.outcome->load(), static_cast<int>(ErrorType::None));
    pinned->Destroy();
    EXPECT_TRUE(Eventually([] { return IoThreadsRunning() == 1; }));
    EXPECT_EQ(net::IoThread::SharedThreadsRunning(), 1u);
    shared->Destroy();
    EXPECT_EQ(net::IoThread::SharedThreadsRunning(), 0u);
    EXPECT_TRUE(Eventually([] { return IoThreadsRunning() == 0; }));
}

}  // namespace
