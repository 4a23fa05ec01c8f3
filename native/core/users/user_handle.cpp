#include "users/user_handle.hpp"

#include <charconv>

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

// Each getter copies only what it answers, under the cache's lock (With); a gone user reads as the defaults.
std::optional<Activity> UserHandle::GameActivity() const {
    return With([](const UserRecord &r) { return r.gameActivity; }).value_or(std::nullopt);
}
RelationshipHandle UserHandle::Relationship() const { return RelationshipHandle(cache_, id_); }

bool UserHandle::IsValid() const {
    return With([](const UserRecord &) { return true; }).has_value();
}
uint64_t UserHandle::Id() const {
    return With([](const UserRecord &r) { return r.id; }).value_or(0);
}
std::string UserHandle::Username() const {
    return With([](const UserRecord &r) { return r.username; }).value_or(std::string());
}
std::optional<std::string> UserHandle::GlobalName() const {
    return With([](const UserRecord &r) { return r.globalName; }).value_or(std::nullopt);
}
std::optional<std::string> UserHandle::Avatar() const {
    return With([](const UserRecord &r) { return r.avatar; }).value_or(std::nullopt);
}
StatusType UserHandle::Status() const {
    return With([](const UserRecord &r) { return r.status; }).value_or(StatusType::Offline);
}
bool UserHandle::IsProvisional() const {
    return With([](const UserRecord &r) { return r.provisional; }).value_or(false);
}
std::optional<std::string> UserHandle::GuildTag() const {
    return With([](const UserRecord &r) { return r.guildTag; }).value_or(std::nullopt);
}

std::vector<UserApplicationProfileHandle> UserHandle::UserApplicationProfiles() const {
    return With([this](const UserRecord &r) {
               std::vector<UserApplicationProfileHandle> handles;
               if (!r.applicationProfiles) return handles;
               handles.reserve(r.applicationProfiles->size());
               // A handle names its profile by identity only: the other fields are read from the cache at each call.
               for (const auto &p : *r.applicationProfiles) {
                   ApplicationProfileRecord identity;
                   identity.providerType = p.providerType;
                   identity.providerId = p.providerId;
                   identity.providerIssuedUserId = p.providerIssuedUserId;
                   handles.emplace_back(cache_, id_, std::move(identity));
               }
               return handles;
           })
        .value_or(std::vector<UserApplicationProfileHandle>{});
}

std::string UserHandle::DisplayName() const {
    return With([](const UserRecord &r) { return DisplayNameOf(r); }).value_or(std::string());
}

std::string UserHandle::AvatarUrl(UserHandleAvatarType animatedType, UserHandleAvatarType staticType) const {
    return ReadRecord([&](const UserRecord &u, const std::string &cdnBase) {
               return AvatarUrlOf(u, cdnBase, animatedType, staticType);
           })
        .value_or(std::string());
}

std::string AvatarUrlOf(const UserRecord &user, const std::string &cdnBase, UserHandleAvatarType animatedType,
                        UserHandleAvatarType staticType) {
    std::string url;
    AppendAvatarUrl(url, user, cdnBase, animatedType, staticType);
    return url;
}

void AppendAvatarUrl(std::string &out, const UserRecord &user, const std::string &cdnBase,
                     UserHandleAvatarType animatedType, UserHandleAvatarType staticType) {
    // The platform's CDN layout: avatars/<user id>/<hash>.<ext>; "a_" hashes are animated. Without an avatar
    // the default one is chosen from the id, like the reference platform's embed avatars.
    out += cdnBase;
    if (!user.avatar) {
        out += "/embed/avatars/";
        out += static_cast<char>('0' + (user.id >> 22) % 6);
        out += ".png";
        return;
    }
    const bool animated = user.avatar->rfind("a_", 0) == 0;
    char id[24];
    const auto [end, ec] = std::to_chars(id, id + sizeof id, user.id);
    (void)ec;  // 24 chars hold any uint64
    out += "/avatars/";
    out.append(id, end);
    out += '/';
    out += *user.avatar;
    out += '.';
    out += Extension(animated ? animatedType : staticType);
}

}  // namespace svcpp::core
