// OAuth2 scope sets of the specification and the ClientId default of AuthorizationArgs.
#pragma once
#include <cstdint>

#include "generated/values.hpp"

namespace svcpp::core::scopes {

inline constexpr const char *kCommunication = "openid sdk.social_layer";
inline constexpr const char *kPresence = "openid sdk.social_layer_presence";

/** AuthorizationArgs.ClientId, or the client's application id when it is unset (0). */
inline uint64_t EffectiveClientId(const AuthorizationArgs &args, uint64_t applicationId) {
    return args.clientId != 0 ? args.clientId : applicationId;
}

}  // namespace svcpp::core::scopes
