#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "runtime/abi_error.hpp"
#include "runtime/callback_queue.hpp"

using svcpp::core::AbiError;
using svcpp::core::CallbackQueue;
using svcpp::core::Job;
using svcpp::core::JobMode;

namespace {
Job Event(std::vector<int> &seen, int n) {
    return Job{[&seen, n](JobMode mode) {
        if (mode == JobMode::Deliver) seen.push_back(n);
    }};
}
svcpp::core::SharedCallback<void()> CountingHook(int &fired) {
    return svcpp::core::Share(svcpp::core::Callback<void()>{[&fired] { ++fired; }, {}});
}
}  // namespace

TEST(CallbackQueue, RunsInOrderOnlyWhatWasQueuedAtEntry) {
    CallbackQueue q;
    std::vector<int> seen;
    q.Post(Event(seen, 1));
    q.Post(Job{[&](JobMode) {
        seen.push_back(2);
        q.Post(Event(seen, 3));  // queued during the pump: waits for the next one
    }});
    q.Run(nullptr);
    EXPECT_EQ(seen, (std::vector<int>{1, 2}));
    EXPECT_TRUE(q.HasPending());
    q.Run(nullptr);
    EXPECT_EQ(seen, (std::vector<int>{1, 2, 3}));
    EXPECT_FALSE(q.HasPending());
}

TEST(CallbackQueue, NestedRunIsBusy) {
    CallbackQueue q;
    svcpp::core::Errc nested = svcpp::core::Errc::Ok;
    q.Post(Job{[&](JobMode) {
        try {
            q.Run(nullptr);
        } catch (const AbiError &e) {
            nested = e.code();
        }
    }});
    q.Run(nullptr);
    EXPECT_EQ(nested, svcpp::core::Errc::Busy);
}

TEST(CallbackQueue, HookIsEdgeTriggeredAndRearmedByAPump) {
    CallbackQueue q;
    int fired = 0;
    std::vector<int> seen;
    q.SetHook(CountingHook(fired));
    q.Post(Event(seen, 1));
    q.Post(Event(seen, 2));
    EXPECT_EQ(fired, 1);  // empty -> non-empty once; coalesced until the next pump
    q.Run(nullptr);
    q.Post(Event(seen, 3));
    EXPECT_EQ(fired, 2);
}

TEST(CallbackQueue, HookFiresAtRegistrationWhenWorkIsQueued) {
    CallbackQueue q;
    std::vector<int> seen;
    q.Post(Event(seen, 1));
    int fired = 0;
    q.SetHook(CountingHook(fired));
    EXPECT_EQ(fired, 1);
}

TEST(CallbackQueue, StopRequestPutsUnrunJobsBack) {
    CallbackQueue q;
    std::vector<int> seen;
    bool stop = false;
    q.Post(Job{[&](JobMode) {
        seen.push_back(1);
        stop = true;
    }});
    q.Post(Event(seen, 2));
    q.Run([&] { return stop; });
    EXPECT_EQ(seen, (std::vector<int>{1}));
    EXPECT_EQ(q.TakeAll().size(), 1u);
}

TEST(CallbackQueue, PostsFromManyThreadsAreAllDelivered) {
    CallbackQueue q;
    std::atomic<int> delivered{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 1000; ++i) q.Post(Job{[&](JobMode) { delivered.fetch_add(1); }});
        });
    }
    while (delivered.load() < 4000) q.Run(nullptr);
    for (auto &t : threads) t.join();
    q.Run(nullptr);
    EXPECT_EQ(delivered.load(), 4000);
}
