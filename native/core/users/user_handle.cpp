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

std::optional<Activity> UserHandle::GameActivity() const {
    return Read<std::optional<Activity>>([](const UserRecord &r) { return r.gameActivity; });
}
RelationshipHandle UserHandle::Relationship() const { return RelationshipHandle(cache_, id_); }

bool UserHandle::IsValid() const { return Read<bool>([](const UserRecord &) { return true; }); }
uint64_t UserHandle::Id() const { return IsValid() ? id_ : 0; }
std::string UserHandle::Username() const { return Read<std::string>([](const UserRecord &r) { return r.username; }); }
std::optional<std::string> UserHandle::GlobalName() const {
    return Read<std::optional<std::string>>([](const UserRecord &r) { return r.globalName; });
}
std::optional<std::string> UserHandle::Avatar() const { return Read<std::optional<std::string>>([](const UserRecord &r) { return r.avatar; }); }
StatusType UserHandle::Status() const { return Read<StatusType>([](const UserRecord &r) { return r.status; }, StatusType::Offline); }
bool UserHandle::IsProvisional() const { return Read<bool>([](const UserRecord &r) { return r.provisional; }); }
std::optional<std::string> UserHandle::GuildTag() const { return Read<std::optional<std::string>>([](const UserRecord &r) { return r.guildTag; }); }

std::vector<UserApplicationProfileHandle> UserHandle::UserApplicationProfiles() const {
    return Read<std::vector<UserApplicationProfileHandle>>([&](const UserRecord &r) {
        std::vector<UserApplicationProfileHandle> handles;
        if (r.applicationProfiles) {
            for (const auto &profile : *r.applicationProfiles) handles.emplace_back(cache_, id_, profile);
        }
        return handles;
    });
}

std::string UserHandle::DisplayName() const { return Read<std::string>([](const UserRecord &r) { return DisplayNameOf(r); }); }

std::string UserHandle::AvatarUrl(UserHandleAvatarType animatedType, UserHandleAvatarType staticType) const {
    auto cache = cache_.lock();
    if (!cache) return {};
    // The platform's CDN layout: avatars/<user id>/<hash>.<ext>; "a_" hashes are animated. Without an avatar
    // the default one is chosen from the id, like the reference platform's embed avatars.
    return Read<std::string>([&](const UserRecord &r) {
        if (!r.avatar) return cache->CdnBase() + "/embed/avatars/" + std::to_string((r.id >> 22) % 6) + ".png";
        const bool animated = r.avatar->rfind("a_", 0) == 0;
        return cache->CdnBase() + "/avatars/" + std::to_string(r.id) + "/" + *r.avatar + "." + Extension(animated ? animatedType : staticType);
    });
}

}  // namespace svcpp::core
