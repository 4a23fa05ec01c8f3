// Product version of the library (the ABI version lives in svcpp.h).
#pragma once
#include <cstdint>

namespace svcpp::core::version {
int32_t Major();
int32_t Minor();
int32_t Patch();
/** The source revision the library was built from ("unknown" outside a git checkout). */
const char *Hash();
}  // namespace svcpp::core::version
