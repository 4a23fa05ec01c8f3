// Behaviour of the AdditionalContent value beyond its fields.
#pragma once
#include "generated/values.hpp"

namespace svcpp::core {
/** Field-wise equality (type, title, count). */
inline bool Equals(const AdditionalContent &a, const AdditionalContent &b) { return a == b; }
}  // namespace svcpp::core
