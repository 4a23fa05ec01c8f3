#include "threads/os_thread.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace svcpp::core::os {

ThreadId CurrentThreadId() { return static_cast<ThreadId>(::syscall(SYS_gettid)); }

void NameCurrentThread(const char *name) { pthread_setname_np(pthread_self(), name); }

void PinCurrentThread(uint64_t mask) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu = 0; cpu < 64; ++cpu) {
        if (mask & (uint64_t{1} << cpu)) CPU_SET(cpu, &set);
    }
    // A mask naming no CPU of this machine is ignored rather than failing the client.
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

std::string SetThreadNice(ThreadId tid, int32_t nice) {
    if (::setpriority(PRIO_PROCESS, static_cast<id_t>(tid), nice) == 0) return {};
    const int error = errno;
    return std::string(std::strerror(error)) +
           (error == EACCES || error == EPERM ? " (raising a priority needs CAP_SYS_NICE or RLIMIT_NICE)" : "");
}

void EnterRealTimeAudioClass() {}

}  // namespace svcpp::core::os
