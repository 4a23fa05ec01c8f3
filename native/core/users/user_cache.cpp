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

/** `provider_type` is the identity's external_auth_type (wire-protocol.md §8 strings). */
ExternalIdentityProviderType ProviderType(const std::string &externalAuthType) {
    if (externalAuthType == "OIDC") return ExternalIdentityProviderType::OIDC;
    if (externalAuthType.rfind("EPIC_ONLINE_SERVICES_", 0) == 0) return ExternalIdentityProviderType::EpicOnlineServices;
    if (externalAuthType == "STEAM_SESSION_TICKET") return ExternalIdentityProviderType::Steam;
    if (externalAuthType == "UNITY_SERVICES_ID_TOKEN") return ExternalIdentityProviderType::Unity;
    if (externalAuthType == "DISCORD_BOT_ISSUED_ACCESS_TOKEN") return ExternalIdentityProviderType::PlatformBot;
    return ExternalIdentityProviderType::Unknown;  // e.g. Apple and PlayStation ID tokens: no provider type of their own
}

std::vector<ApplicationProfileRecord> ParseApplicationProfiles(const nlohmann::json &profiles) {
    std::vector<ApplicationProfileRecord> out;
    for (const auto &p : profiles) {
        if (!p.is_object()) continue;
        ApplicationProfileRecord r;
        r.providerType = ProviderType(OptionalString(p, "provider_type").value_or(""));
        r.providerId = OptionalString(p, "provider_id");
        r.providerIssuedUserId = OptionalString(p, "provider_issued_user_id").value_or("");
        r.username = OptionalString(p, "username").value_or("");
        r.avatarHash = OptionalString(p, "avatar_hash").value_or("");
        r.metadata = OptionalString(p, "metadata").value_or("");
        out.push_back(std::move(r));
    }
    return out;
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
    auto profiles = user.find("application_profiles");
    if (profiles != user.end() && profiles->is_array()) r.applicationProfiles = ParseApplicationProfiles(*profiles);
    return r;
}

void UserCache::Upsert(const UserRecord &user) {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = users_.try_emplace(user.id, user);
    if (!inserted) {
        StatusType status = it->second.status;
        auto profiles = std::move(it->second.applicationProfiles);
        it->second = user;
        it->second.status = status;
        if (!user.applicationProfiles) it->second.applicationProfiles = std::move(profiles);
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
