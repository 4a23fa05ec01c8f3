// The voice threads (svcpp-voice, svcpp-net) enter their client's SdkThreads when they start: named, pinned to
// ClientCreateOptions::CpuAffinityMask and given the priority Client::SetThreadPriority set for their kind.
#pragma once
#include <memory>

#include "threads/sdk_threads.hpp"

namespace svcpp::core::voice {

/** threads may be null (engine tests without a client): the thread is only named. */
[[nodiscard]] SdkThreads::Membership SetUpCurrentThread(const std::shared_ptr<SdkThreads> &threads, ClientThread kind,
                                                        const char *name);

}  // namespace svcpp::core::voice
