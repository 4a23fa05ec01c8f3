// The transport encryption modes this SDK speaks, and the choice among the server's offer (platform/PROTOCOL.md
// §13 Voice): only the two "rtpsize" AEAD modes exist for us; the older modes (xsalsa20_poly1305*, non-rtpsize
// aead_aes256_gcm) are never selected even when offered.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace svcpp::core::voice {

inline constexpr const char *kAes256GcmRtpsize = "aead_aes256_gcm_rtpsize";
inline constexpr const char *kXChaCha20Poly1305Rtpsize = "aead_xchacha20_poly1305_rtpsize";

/** True for the two modes this SDK implements. */
bool IsSupportedMode(const std::string &mode);

/** The first mode of the server's list (its order of preference) that we support; nullopt when none is. */
std::optional<std::string> ChooseMode(const std::vector<std::string> &offered);

}  // namespace svcpp::core::voice
