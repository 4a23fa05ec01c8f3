#include "users/users_service.hpp"

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core::users {

std::vector<UserEvent> Apply(UserCache &users, std::string_view type, const nlohmann::json &data) {
    if (type == "READY") {
        users.Clear();
        UserRecord me = ParseUser(wire::Member(data, "user"));
        me.status = StatusType::Online;
        users.Upsert(me);
        users.SetStatus(me.id, StatusType::Online);
        users.SetCurrentUserId(me.id);
        return {};
    }
    if (type == "USER_UPDATE") {
        UserRecord user = ParseUser(data);
        if (user.id == 0) return {};
        users.Upsert(user);
        return {{UserEvent::Kind::Updated, user.id}};
    }
    return {};
}

void UsersService::Register(DispatchTable &table) {
    for (const char *type : {"READY", "USER_UPDATE"})
        table.On(type, [this](std::string_view t, const nlohmann::json &data) { Post(Apply(*cache_, t, data)); });
}

void UsersService::Post(const std::vector<UserEvent> &events) {
    for (const auto &e : events) updated_.Post(e.userId);
}

std::optional<UserHandle> UsersService::GetCurrentUserV2() const {
    // Set by READY and cleared when the session ends: absent until the first Ready of a session.
    const uint64_t id = cache_->CurrentUserId();
    if (!id || !cache_->Contains(id)) return std::nullopt;
    return UserHandle(cache_, id);
}

std::optional<UserHandle> UsersService::GetUser(uint64_t userId) const {
    if (!cache_->Contains(userId)) return std::nullopt;
    return UserHandle(cache_, userId);
}

}  // namespace svcpp::core::users
