#include "users/user_application_profile_handle.hpp"

namespace svcpp::core {

template <class Field>
auto UserApplicationProfileHandle::Read(Field &&field) const -> decltype(field(ApplicationProfileRecord{})) {
    const ApplicationProfileRecord *found = nullptr;
    decltype(field(ApplicationProfileRecord{})) value{};
    auto cache = cache_.lock();
    if (cache) {
        cache->With(userId_, [&](const UserRecord &user) {
            if (!user.applicationProfiles) return;
            for (const auto &profile : *user.applicationProfiles) {
                if (profile.SameIdentity(identity_)) {
                    found = &profile;
                    value = field(profile);  // under the cache's lock
                    return;
                }
            }
        });
    }
    // A gone profile reads as an empty one of unknown type.
    return found ? value : field(ApplicationProfileRecord{});
}

bool UserApplicationProfileHandle::IsValid() const {
    bool valid = false;
    auto cache = cache_.lock();
    if (cache) {
        cache->With(userId_, [&](const UserRecord &user) {
            if (!user.applicationProfiles) return;
            for (const auto &profile : *user.applicationProfiles) valid = valid || profile.SameIdentity(identity_);
        });
    }
    return valid;
}
std::string UserApplicationProfileHandle::AvatarHash() const { return Read([](const ApplicationProfileRecord &r) { return r.avatarHash; }); }
std::string UserApplicationProfileHandle::Metadata() const { return Read([](const ApplicationProfileRecord &r) { return r.metadata; }); }
std::optional<std::string> UserApplicationProfileHandle::ProviderId() const {
    return Read([](const ApplicationProfileRecord &r) { return r.providerId; });
}
std::string UserApplicationProfileHandle::ProviderIssuedUserId() const {
    return Read([](const ApplicationProfileRecord &r) { return r.providerIssuedUserId; });
}
ExternalIdentityProviderType UserApplicationProfileHandle::ProviderType() const {
    return Read([](const ApplicationProfileRecord &r) { return r.providerType; });
}
std::string UserApplicationProfileHandle::Username() const { return Read([](const ApplicationProfileRecord &r) { return r.username; }); }

}  // namespace svcpp::core
