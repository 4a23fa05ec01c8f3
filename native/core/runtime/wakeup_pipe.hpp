// The wakeup pipe of an FFI host (Svcpp_Client_OpenWakeupFd): the queue writes a byte into it when work is pending,
// the host waits for its read end on its own event loop. POSIX pipes (wakeup_pipe_posix.cpp); Windows has no
// descriptor a Node host could wait on this way, so there the call reports NotSupported and the koffi binding pumps
// from a timer, as it does without the pipe anywhere (wakeup_pipe_windows.cpp).
#pragma once
#include <cstdint>

namespace svcpp::core {

struct WakeupPipe {
    int32_t readFd = -1;
    int32_t writeFd = -1;
};

/** A new non-blocking, close-on-exec pipe; throws AbiError (Internal, or NotSupported on Windows). */
WakeupPipe OpenWakeupPipe();

/** One byte into the write end. A full pipe already holds a wakeup the host has not read: nothing is lost. */
void SignalWakeupPipe(int32_t writeFd);

/** Closes a descriptor of the pipe; -1 is ignored. */
void CloseWakeupFd(int32_t fd);

}  // namespace svcpp::core
