// The process's shared I/O threads (net/io_thread.hpp, net/io_pool.hpp): clients share threads and all progress;
// a client that stops never runs a handler again, whatever was queued or armed for it; threads end with their last
// client.
#include <gtest/gtest.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <vector>

#include "net/client_executor.hpp"
#include "net/io_thread.hpp"
#include "net_test_client.hpp"
#include "net_test_server.hpp"
#include "threads/sdk_threads.hpp"

using svcpp::core::SdkThreads;
using svcpp::core::net::IoThread;
using namespace svcpp::test;
using namespace std::chrono_literals;

namespace {

std::unique_ptr<IoThread> SharedClient() {
    return std::make_unique<IoThread>(std::make_shared<SdkThreads>(std::nullopt, SdkThreads::RefusalLog{}), false);
}

std::thread::id ThreadOf(IoThread &io) {
    std::thread::id id;
    RunOnIo(io, [&] { id = std::this_thread::get_id(); });
    return id;
}

/** Two shared clients on the same thread (the pool has at most four threads: five clients make a pair). */
struct Pair {
    std::vector<std::unique_ptr<IoThread>> all;
    IoThread *a = nullptr;
    IoThread *b = nullptr;
};
Pair TwoOnOneThread() {
    Pair pair;
    std::vector<std::thread::id> ids;
    for (int i = 0; i < 5 && !pair.a; ++i) {
        pair.all.push_back(SharedClient());
        ids.push_back(ThreadOf(*pair.all.back()));
        for (int j = 0; j < i; ++j) {
            if (ids[j] == ids[i]) {
                pair.a = pair.all[j].get();
                pair.b = pair.all[i].get();
                break;
            }
        }
    }
    return pair;
}

TEST(IoPool, OneClientHasOneThreadAndItEndsWithTheClient) {
    auto client = SharedClient();
    EXPECT_EQ(IoThread::SharedThreadsRunning(), 1u);
    EXPECT_TRUE(client->RunningInThisThread() == false);
    client->Stop();
    EXPECT_EQ(IoThread::SharedThreadsRunning(), 0u);
}

TEST(IoPool, ClientsSpreadOverAtMostFourThreadsAndAllEndWithTheLast) {
    std::vector<std::unique_ptr<IoThread>> clients;
    for (int i = 0; i < 12; ++i) clients.push_back(SharedClient());
    const size_t expected = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
    EXPECT_EQ(IoThread::SharedThreadsRunning(), expected);
    std::vector<std::thread::id> ids;
    for (auto &client : clients) ids.push_back(ThreadOf(*client));
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(static_cast<size_t>(std::unique(ids.begin(), ids.end()) - ids.begin()), expected);
    // Every client but the last: the threads keep running for it.
    for (size_t i = 0; i + 1 < clients.size(); ++i) clients[i].reset();
    EXPECT_EQ(IoThread::SharedThreadsRunning(), 1u);
    clients.clear();
    EXPECT_EQ(IoThread::SharedThreadsRunning(), 0u);
}

// A busy client (a handler that posts the next one, without end) and another client on the same thread: the other
// client's handlers and timers still run, each after at most the handler running at the time.
TEST(IoPool, TwoClientsOnOneThreadBothProgress) {
    Pair pair = TwoOnOneThread();
    ASSERT_NE(pair.a, nullptr) << "no two clients shared a thread";
    std::atomic<bool> busy{true};
    std::atomic<int> busyRuns{0};
    std::function<void()> spin = [&] {
        ++busyRuns;
        if (busy.load()) pair.a->Post(spin);
    };
    pair.a->Post(spin);
    // The other client: posts and a timer, all run while the busy one keeps posting.
    std::promise<void> timerFired;
    std::unique_ptr<boost::asio::steady_timer> timer;
    RunOnIo(*pair.b, [&] {
        timer = std::make_unique<boost::asio::steady_timer>(pair.b->Executor(), 1ms);
        timer->async_wait([&](const boost::system::error_code &ec) {
            if (!ec) timerFired.set_value();
        });
    });
    EXPECT_EQ(timerFired.get_future().wait_for(kPatience), std::future_status::ready);
    for (int i = 0; i < 100; ++i) RunOnIo(*pair.b, [] {});
    EXPECT_TRUE(busy.load());
    EXPECT_GT(busyRuns.load(), 0);
    busy.store(false);
    RunOnIo(*pair.b, [&] { timer.reset(); });
    pair.a->Stop();  // a last `spin` may still be queued: it must not run once this test's locals are gone
}

// Stop closes the client's gate on its thread: nothing of the client runs afterwards — not its posts still queued,
// not a timer that expires, not a post made after Stop — while the other client on the thread goes on.
TEST(IoPool, AStoppedClientsHandlersNeverRunAndTheOtherGoesOn) {
    Pair pair = TwoOnOneThread();
    ASSERT_NE(pair.a, nullptr) << "no two clients shared a thread";
    std::atomic<bool> closed{false};
    std::atomic<int> ranAfterClose{0};
    auto guarded = [&] {
        if (closed.load()) ++ranAfterClose;
    };
    std::unique_ptr<boost::asio::steady_timer> timer;
    RunOnIo(*pair.a, [&] {
        timer = std::make_unique<boost::asio::steady_timer>(pair.a->Executor(), 20ms);
        timer->async_wait([&](const boost::system::error_code &) { guarded(); });
    });
    // Hold the thread with the other client, queue work of the stopping client behind it, then stop it.
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    pair.b->Post([released] { released.wait(); });
    for (int i = 0; i < 50; ++i) pair.a->Post(guarded);
    std::thread stopper([&] {
        pair.a->Stop([&] {
            closed.store(true);
            pair.a->Post(guarded);  // posted from its own last job: never runs
        });
    });
    std::this_thread::sleep_for(5ms);  // lets Stop queue its job behind (not a timing assertion: either order is fine)
    release.set_value();
    stopper.join();
    EXPECT_TRUE(closed.load());
    pair.a->Post(guarded);  // after Stop: never runs either
    // Whatever was queued for the stopped client has come up and gone by the time these have run.
    std::this_thread::sleep_for(30ms);  // the timer's expiry passes (its handler, had it run, would count)
    for (int i = 0; i < 10; ++i) RunOnIo(*pair.b, [] {});
    EXPECT_EQ(ranAfterClose.load(), 0);
    timer.reset();  // idle: no handler pending
}

// Objects a discarded handler owns are destroyed on the I/O thread (the thread that owns them), never run.
TEST(IoPool, ADiscardedHandlersCapturesAreDestroyedOnTheIoThread) {
    Pair pair = TwoOnOneThread();
    ASSERT_NE(pair.a, nullptr) << "no two clients shared a thread";
    std::thread::id ioThread = ThreadOf(*pair.b);
    struct Witness {
        std::promise<std::thread::id> *destroyedOn;
        ~Witness() { destroyedOn->set_value(std::this_thread::get_id()); }
    };
    std::promise<std::thread::id> destroyedOn;
    pair.a->Stop([&] {
        // Queued behind the gate's closing: it comes up later and is dropped there, with what it owns.
        auto witness = std::make_shared<Witness>(&destroyedOn);
        pair.a->Post([witness] { ADD_FAILURE() << "a handler of a stopped client ran"; });
    });
    auto destroyed = destroyedOn.get_future();
    ASSERT_EQ(destroyed.wait_for(kPatience), std::future_status::ready);
    EXPECT_EQ(destroyed.get(), ioThread);
}

}  // namespace
