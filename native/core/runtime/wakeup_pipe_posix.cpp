#include "runtime/wakeup_pipe.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "runtime/abi_error.hpp"

namespace svcpp::core {

WakeupPipe OpenWakeupPipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
        throw AbiError(Errc::Internal, std::string("pipe2: ") + std::strerror(errno));
    return {fds[0], fds[1]};
}

void SignalWakeupPipe(int32_t writeFd) {
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(writeFd, &byte, 1);  // EAGAIN: a wakeup is already pending
}

void CloseWakeupFd(int32_t fd) {
    if (fd >= 0) ::close(fd);
}

}  // namespace svcpp::core
