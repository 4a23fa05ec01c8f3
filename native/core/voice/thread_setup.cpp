#include "voice/thread_setup.hpp"

#include <pthread.h>
#include <sched.h>

namespace svcpp::core::voice {

void SetUpCurrentThread(const char *name, std::optional<uint64_t> cpuAffinityMask) {
    pthread_setname_np(pthread_self(), name);
    if (!cpuAffinityMask) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu = 0; cpu < 64; ++cpu) {
        if (*cpuAffinityMask & (uint64_t{1} << cpu)) CPU_SET(cpu, &set);
    }
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);  // a mask naming no CPU here is ignored
}

}  // namespace svcpp::core::voice
