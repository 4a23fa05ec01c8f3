#include "voice/thread_setup.hpp"

#include <pthread.h>

namespace svcpp::core::voice {

SdkThreads::Membership SetUpCurrentThread(const std::shared_ptr<SdkThreads> &threads, ClientThread kind, const char *name) {
    if (threads) return threads->Enter(kind, name);
    pthread_setname_np(pthread_self(), name);
    return {};
}

}  // namespace svcpp::core::voice
