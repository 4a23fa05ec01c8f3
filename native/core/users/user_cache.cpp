#include "users/user_cache.hpp"

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core {

namespace {
using wire::OptionalString;
using wire::String;

/** `provider_type` is the identity's external_auth_type (platform/PROTOCOL.md §4–5 strings). */
ExternalIdentityProviderType ProviderType(const std::string &externalAuthType) {
    if (externalAuthType == "OIDC") return ExternalIdentityProviderType::OIDC;
    if (externalAuthType.rfind("EPIC_ONLINE_SERVICES_", 0) == 0)
        return ExternalIdentityProviderType::EpicOnlineServices;
    if (externalAuthType == "STEAM_SESSION_TICKET") return ExternalIdentityProviderType::Steam;
    if (externalAuthType == "UNITY_SERVICES_ID_TOKEN") return ExternalIdentityProviderType::Unity;
    if (externalAuthType == "DISCORD_BOT_ISSUED_ACCESS_TOKEN") return ExternalIdentityProviderType::PlatformBot;
    return ExternalIdentityProviderType::Unknown;  // e.g. Apple and PlayStation ID tokens: no provider type of their
                                                   // own
}

std::vector<ApplicationProfileRecord> ParseApplicationProfiles(const nlohmann::json &profiles) {
    std::vector<ApplicationProfileRecord> out;
    for (const auto &p : profiles) {
        if (!p.is_object()) continue;
        ApplicationProfileRecord r;
        r.providerType = ProviderType(String(p, "provider_type"));
        r.providerId = OptionalString(p, "provider_id");
        r.providerIssuedUserId = String(p, "provider_issued_user_id");
        r.username = String(p, "username");
        r.avatarHash = String(p, "avatar_hash");
        r.metadata = String(p, "metadata");
        out.push_back(std::move(r));
    }
    return out;
}
}  // namespace

UserRecord ParseUser(const nlohmann::json &user) {
    UserRecord r;
    if (!user.is_object()) return r;
    r.id = wire::Snowflake(user, "id");
    r.username = String(user, "username");
    r.globalName = OptionalString(user, "global_name");
    r.avatar = OptionalString(user, "avatar");
    r.provisional = wire::Bool(user, "is_provisional");
    const auto &guild = wire::Member(user, "primary_guild");
    if (wire::Bool(guild, "identity_enabled")) r.guildTag = OptionalString(guild, "tag");
    auto profiles = user.find("application_profiles");
    if (profiles != user.end() && profiles->is_array()) r.applicationProfiles = ParseApplicationProfiles(*profiles);
    return r;
}

std::string DisplayNameOf(const UserRecord &user) {
    return user.globalName && !user.globalName->empty() ? *user.globalName : user.username;
}

void UserCache::Upsert(const UserRecord &user) {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = users_.try_emplace(user.id, user);
    if (!inserted) {
        StatusType status = it->second.status;
        auto activity = std::move(it->second.gameActivity);
        auto profiles = std::move(it->second.applicationProfiles);
        it->second = user;
        it->second.status = status;
        it->second.gameActivity = std::move(activity);
        if (!user.applicationProfiles) it->second.applicationProfiles = std::move(profiles);
    }
}

bool UserCache::SetPresence(uint64_t id, StatusType status, const std::optional<Activity> &gameActivity) {
    std::lock_guard lock(mutex_);
    auto it = users_.find(id);
    if (it == users_.end()) return false;
    if (it->second.status == status && it->second.gameActivity == gameActivity) return false;
    it->second.status = status;
    it->second.gameActivity = gameActivity;
    return true;
}

bool UserCache::SetStatus(uint64_t id, StatusType status) {
    std::lock_guard lock(mutex_);
    auto it = users_.find(id);
    if (it == users_.end()) return false;
    it->second.status = status;
    return true;
}

bool UserCache::Contains(uint64_t id) const {
    std::lock_guard lock(mutex_);
    return users_.count(id) != 0;
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
    relationships_.Clear();
}

}  // namespace svcpp::core
