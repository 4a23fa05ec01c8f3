// C++ wrapper on Linux: SetThreadPriority seen from the system's side (/proc/self/task), the one part of the
// Client suite that reads Linux's own view of the threads (client_test.cpp has the rest, for every target).
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "svcpp.hpp"
#include "thread_census.hpp"

using namespace svcpp;

// SetThreadPriority through svcpp.hpp reaches the client's real I/O thread (svcpp-io): its nice value, as /proc
// reports it, is the one set. Lowering a priority needs no privilege, so this holds for any user.
TEST(Client, SetThreadPriorityAppliesTheNiceValueToTheIoThread) {
    auto ioThreadNices = [] { return test::ThreadNicesNamed("svcpp-io"); };
    const int lowered = std::min(::getpriority(PRIO_PROCESS, 0) + 6, 19);
    Client client;
    client.SetThreadPriority(Client::Thread::Client, lowered);
    // This client's I/O thread (the ones of earlier tests have ended), once it has named itself: it may still be
    // starting, and then takes the value as it enters.
    auto nices = ioThreadNices();
    for (int i = 0; i < 2000 && (nices.size() != 1u || nices[0] != lowered); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        nices = ioThreadNices();
    }
    ASSERT_EQ(nices.size(), 1u);
    EXPECT_EQ(nices[0], lowered);
}
