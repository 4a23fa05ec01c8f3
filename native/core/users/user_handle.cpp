#include "users/user_handle.hpp"

namespace svcpp::core {

namespace {
const char *Extension(UserHandleAvatarType type) {
    switch (type) {
        case UserHandleAvatarType::Gif: return "gif";
        case UserHandleAvatarType::Webp: return "webp";
        case UserHandleAvatarType::Png: return "png";
        case UserHandleAvatarType::Jpeg: return "jpg";
    }
    return "png";
}
}  // namespace

std::optional<UserRecord> UserHandle::Record() const {
    auto cache = cache_.lock();
    if (!cache) return std::nullopt;
    return cache->Get(id_);
}

std::optional<Activity> UserHandle::GameActivity() const { return Record().value_or(UserRecord{}).gameActivity; }
RelationshipHandle UserHandle::Relationship() const { return RelationshipHandle(cache_, id_); }

bool UserHandle::IsValid() const { return Record().has_value(); }
uint64_t UserHandle::Id() const { return Record() ? id_ : 0; }
std::string UserHandle::Username() const { return Record().value_or(UserRecord{}).username; }
std::optional<std::string> UserHandle::GlobalName() const { return Record().value_or(UserRecord{}).globalName; }
std::optional<std::string> UserHandle::Avatar() const { return Record().value_or(UserRecord{}).avatar; }
StatusType UserHandle::Status() const { return Record().value_or(UserRecord{}).status; }
bool UserHandle::IsProvisional() const { return Record().value_or(UserRecord{}).provisional; }
std::optional<std::string> UserHandle::GuildTag() const { return Record().value_or(UserRecord{}).guildTag; }

std::vector<UserApplicationProfileHandle> UserHandle::UserApplicationProfiles() const {
    std::vector<UserApplicationProfileHandle> handles;
    auto r = Record();
    if (!r || !r->applicationProfiles) return handles;
    for (const auto &profile : *r->applicationProfiles) handles.emplace_back(cache_, id_, profile);
    return handles;
}

std::string UserHandle::DisplayName() const {
    auto r = Record();
    return r ? DisplayNameOf(*r) : std::string();
}

std::string UserHandle::AvatarUrl(UserHandleAvatarType animatedType, UserHandleAvatarType staticType) const {
    auto cache = cache_.lock();
    auto r = Record();
    if (!cache || !r) return {};
    // The platform's CDN layout: avatars/<user id>/<hash>.<ext>; "a_" hashes are animated. Without an avatar
    // the default one is chosen from the id, like the reference platform's embed avatars.
    if (!r->avatar) return cache->CdnBase() + "/embed/avatars/" + std::to_string((r->id >> 22) % 6) + ".png";
    const bool animated = r->avatar->rfind("a_", 0) == 0;
    return cache->CdnBase() + "/avatars/" + std::to_string(r->id) + "/" + *r->avatar + "." + Extension(animated ? animatedType : staticType);
}

}  // namespace svcpp::core
