// What the operating system says of this process's threads, for tests that check the SDK's threads by the names it
// gives them (svcpp-io, svcpp-voice, svcpp-net: threads/os_thread.hpp). One file per system: thread_census_linux.cpp
// reads /proc/self/task, thread_census_windows.cpp asks the Tool Help snapshot and each thread's description.
#pragma once

#include <string>
#include <vector>

namespace svcpp::test {

/** How many threads of this process carry the name `name` now. */
int CountThreadsNamed(const std::string &name);

/**
 * The nice values of this process's threads named `name`, one per thread. Linux's notion: Windows maps a nice value
 * onto its seven priority levels, so there the list is empty (a test reads the values back on Linux only).
 */
std::vector<int> ThreadNicesNamed(const std::string &name);

/** Whether ThreadNicesNamed reads real values on this system. */
bool ThreadNicesAreReadable();

}  // namespace svcpp::test
