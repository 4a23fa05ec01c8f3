#include "version.hpp"

#ifndef SVCPP_VERSION_HASH
#define SVCPP_VERSION_HASH "unknown"
#endif

namespace svcpp::core::version {
int32_t Major() { return SVCPP_PRODUCT_VERSION_MAJOR; }
int32_t Minor() { return SVCPP_PRODUCT_VERSION_MINOR; }
int32_t Patch() { return SVCPP_PRODUCT_VERSION_PATCH; }
const char *Hash() { return SVCPP_VERSION_HASH; }
}  // namespace svcpp::core::version
