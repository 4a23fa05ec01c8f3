#include "runtime/wakeup_pipe.hpp"

#include "runtime/abi_error.hpp"

namespace svcpp::core {

WakeupPipe OpenWakeupPipe() {
    throw AbiError(Errc::NotSupported,
                   "wakeup descriptors need POSIX pipes; on Windows pump with Svcpp_RunCallbacks or the wakeup hook");
}

// Never called with a descriptor: OpenWakeupPipe gives none on Windows.
void SignalWakeupPipe(int32_t) {}

void CloseWakeupFd(int32_t) {}

}  // namespace svcpp::core
