// Behaviour of the AudioDevice value beyond its fields.
#pragma once
#include "generated/values.hpp"

namespace svcpp::core {
/** Two descriptions of the same device: the id decides (names are for people and may change). */
inline bool Equals(const AudioDevice &a, const AudioDevice &b) { return a.id == b.id; }
}  // namespace svcpp::core
