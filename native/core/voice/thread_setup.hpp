// Naming and pinning of the voice threads (svcpp-voice, svcpp-net): names show in debuggers and `top -H`; the
// pinning follows ClientCreateOptions::CpuAffinityMask like the client's I/O thread.
#pragma once
#include <cstdint>
#include <optional>

namespace svcpp::core::voice {

void SetUpCurrentThread(const char *name, std::optional<uint64_t> cpuAffinityMask);

}  // namespace svcpp::core::voice
