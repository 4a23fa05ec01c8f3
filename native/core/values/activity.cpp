#include "values/activity.hpp"

namespace svcpp::core {

void AddButton(Activity &activity, ActivityButton button) { activity.buttons.push_back(std::move(button)); }

std::vector<ActivityButton> GetButtons(const Activity &activity) { return activity.buttons; }

bool Equals(const Activity &activity, const Activity &other) { return activity == other; }

}  // namespace svcpp::core
