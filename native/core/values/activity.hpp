// Behaviour of the Activity value beyond its fields (AddButton, GetButtons, Equals; idl/surface.mjs "Activity").
#pragma once
#include <vector>

#include "generated/values.hpp"

namespace svcpp::core {
/** Appends a button; the limit of two is UpdateRichPresence's check, so an activity can be built up freely. */
void AddButton(Activity &activity, ActivityButton button);
std::vector<ActivityButton> GetButtons(const Activity &activity);
bool Equals(const Activity &activity, const Activity &other);
}  // namespace svcpp::core
