// The local checks of UpdateRichPresence (limits listed in native/SEMANTICS.md "Social layer: relationships…",
// the same the platform enforces in PROTOCOL.md §10.2): the first violation, as a ValidationError message naming the
// field, or nullopt. Lengths are counted in characters (Unicode code points; the input is valid UTF-8 from the C ABI).
#pragma once
#include <optional>
#include <string>

#include "generated/values.hpp"

namespace svcpp::core::presence {

std::optional<std::string> ValidateActivity(const Activity &activity);

}  // namespace svcpp::core::presence
