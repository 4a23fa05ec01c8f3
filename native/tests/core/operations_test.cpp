// Operations: every in-flight callback runs exactly once — real result through the queue, or the failure
// of Drop / ResetCallbacks — and the host's user data is freed once, on a host thread.
#include <gtest/gtest.h>

#include <future>
#include <string>
#include <thread>

#include "runtime/operations.hpp"

using namespace svcpp::core;

namespace {
using StringOp = Operation<void(const ClientResult &, std::string_view)>;

struct Seen {
    int calls = 0;
    ErrorType type = ErrorType::None;
    std::string value;
    int freed = 0;
};

StringOp::Cb Record(Seen &seen) {
    return StringOp::Cb{[&seen](const ClientResult &r, std::string_view v) {
                            ++seen.calls;
                            seen.type = r.type;
                            seen.value = std::string(v);
                        },
                        UserData([](void *p) { ++static_cast<Seen *>(p)->freed; }, &seen)};
}
}  // namespace

TEST(Operations, CompleteQueuesTheResultAndTheArguments) {
    CallbackQueue queue;
    Operations ops(queue);
    Seen seen;
    auto op = StringOp::Begin(ops, Record(seen));
    std::thread([&] { op->Complete(ClientResult{}, std::string("code")); }).join();  // like the I/O thread
    op.reset();
    EXPECT_EQ(seen.calls, 0);  // nothing runs outside the pump
    queue.Run([] { return false; });
    EXPECT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.value, "code");
    EXPECT_EQ(seen.freed, 1);
}

// The host pumps the completion while Complete is still running on the I/O thread (the wakeup hook fires inside
// Post): the user data must still be freed by the pump, on the host thread. A host whose free function can only
// run on its own thread (koffi) deadlocked Drop when the I/O thread freed it.
TEST(Operations, UserDataIsFreedOnTheHostThreadEvenWhenThePumpWinsTheRace) {
    CallbackQueue queue;
    Operations ops(queue);
    std::thread::id freedOn;
    StringOp::Cb cb{
        [](const ClientResult &, std::string_view) {},
        UserData([](void *p) { *static_cast<std::thread::id *>(p) = std::this_thread::get_id(); }, &freedOn)};
    auto op = StringOp::Begin(ops, std::move(cb));
    std::promise<void> posted;
    std::promise<void> pumped;
    auto pumpedFuture = pumped.get_future();
    queue.SetHook(Share(Callback<void()>{[&] {  // on the completing thread, inside Post
                                             posted.set_value();
                                             pumpedFuture.wait();  // Post returns only after the host has pumped
                                         },
                                         {}}));
    std::thread io([&] { op->Complete(ClientResult{}, std::string("code")); });
    posted.get_future().wait();
    queue.Run([] { return false; });
    pumped.set_value();
    io.join();
    EXPECT_EQ(freedOn, std::this_thread::get_id());
}

TEST(Operations, FailAllReachesInFlightOperationsOnceAndLateCompletionsAreDropped) {
    CallbackQueue queue;
    Operations ops(queue);
    Seen seen;
    auto op = StringOp::Begin(ops, Record(seen));
    ops.FailAll(FailureResult(ErrorType::ClientDestroyed, "gone"));
    EXPECT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.type, ErrorType::ClientDestroyed);
    EXPECT_EQ(seen.value, "");
    EXPECT_EQ(seen.freed, 1);
    op->Complete(ClientResult{}, std::string("late"));
    EXPECT_FALSE(queue.HasPending());
    ops.FailAll(FailureResult(ErrorType::Aborted, "again"));
    EXPECT_EQ(seen.calls, 1);
}

TEST(Operations, ACompletedOperationIsNoLongerInFlight) {
    CallbackQueue queue;
    Operations ops(queue);
    Seen seen;
    StringOp::Begin(ops, Record(seen))->Complete(ClientResult{}, std::string("done"));
    ops.FailAll(FailureResult(ErrorType::ClientDestroyed, "gone"));
    EXPECT_EQ(seen.calls, 0);
    queue.Run([] { return false; });
    EXPECT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.type, ErrorType::None);
}

TEST(Operations, AQueuedCompletionAbortedByResetGetsAborted) {
    CallbackQueue queue;
    Operations ops(queue);
    Seen seen;
    StringOp::Begin(ops, Record(seen))->Fail(FailureResult(ErrorType::ValidationError, "bad"));
    for (auto &job : queue.TakeAll()) job.run(JobMode::Abort);
    EXPECT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.type, ErrorType::Aborted);
    EXPECT_EQ(seen.freed, 1);
}
