#include "users/user_cache.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>

namespace svcpp::core {

namespace {
std::optional<std::string> OptionalString(const nlohmann::json &o, const char *key) {
    auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
}
}  // namespace

UserRecord ParseUser(const nlohmann::json &user) {
    UserRecord r;
    if (!user.is_object()) return r;
    if (auto id = OptionalString(user, "id")) r.id = std::strtoull(id->c_str(), nullptr, 10);
    r.username = OptionalString(user, "username").value_or("");
    r.globalName = OptionalString(user, "global_name");
    r.avatar = OptionalString(user, "avatar");
    r.provisional = user.value("is_provisional", false);
    auto guild = user.find("primary_guild");
    if (guild != user.end() && guild->is_object() && guild->value("identity_enabled", false)) r.guildTag = OptionalString(*guild, "tag");
    return r;
}

void UserCache::Upsert(const UserRecord &user) {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = users_.try_emplace(user.id, user);
    if (!inserted) {
        StatusType status = it->second.status;
        it->second = user;
        it->second.status = status;
    }
}

bool UserCache::SetStatus(uint64_t id, StatusType status) {
    std::lock_guard lock(mutex_);
    auto it = users_.find(id);
    if (it == users_.end()) return false;
    it->second.status = status;
    return true;
}

std::optional<UserRecord> UserCache::Get(uint64_t id) const {
    std::lock_guard lock(mutex_);
    auto it = users_.find(id);
    if (it == users_.end()) return std::nullopt;
    return it->second;
}

void UserCache::SetCurrentUserId(uint64_t id) {
    std::lock_guard lock(mutex_);
    currentUserId_ = id;
}

uint64_t UserCache::CurrentUserId() const {
    std::lock_guard lock(mutex_);
    return currentUserId_;
}

void UserCache::Clear() {
    std::lock_guard lock(mutex_);
    users_.clear();
    currentUserId_ = 0;
}

}  // namespace svcpp::core
