#include "voice/encryption_mode.hpp"

namespace svcpp::core::voice {

bool IsSupportedMode(const std::string &mode) { return mode == kAes256GcmRtpsize || mode == kXChaCha20Poly1305Rtpsize; }

std::optional<std::string> ChooseMode(const std::vector<std::string> &offered) {
    for (const auto &mode : offered) {
        if (IsSupportedMode(mode)) return mode;
    }
    return std::nullopt;
}

}  // namespace svcpp::core::voice
