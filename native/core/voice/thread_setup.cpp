#include "voice/thread_setup.hpp"

#include "threads/os_thread.hpp"

namespace svcpp::core::voice {

SdkThreads::Membership SetUpCurrentThread(const std::shared_ptr<SdkThreads> &threads, ClientThread kind,
                                          const char *name) {
    if (threads) return threads->Enter(kind, name);
    os::NameCurrentThread(name);
    return {};
}

}  // namespace svcpp::core::voice
