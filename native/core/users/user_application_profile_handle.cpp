#include "users/user_application_profile_handle.hpp"

namespace svcpp::core {

std::optional<ApplicationProfileRecord> UserApplicationProfileHandle::Record() const {
    auto cache = cache_.lock();
    if (!cache) return std::nullopt;
    auto user = cache->Get(userId_);
    if (!user || !user->applicationProfiles) return std::nullopt;
    for (const auto &profile : *user->applicationProfiles) {
        if (profile.SameIdentity(identity_)) return profile;
    }
    return std::nullopt;
}

namespace {
/** A gone profile reads as an empty one of unknown type. */
ApplicationProfileRecord OrDefault(std::optional<ApplicationProfileRecord> r) { return r.value_or(ApplicationProfileRecord{}); }
}  // namespace

bool UserApplicationProfileHandle::IsValid() const { return Record().has_value(); }
std::string UserApplicationProfileHandle::AvatarHash() const { return OrDefault(Record()).avatarHash; }
std::string UserApplicationProfileHandle::Metadata() const { return OrDefault(Record()).metadata; }
std::optional<std::string> UserApplicationProfileHandle::ProviderId() const { return OrDefault(Record()).providerId; }
std::string UserApplicationProfileHandle::ProviderIssuedUserId() const { return OrDefault(Record()).providerIssuedUserId; }
ExternalIdentityProviderType UserApplicationProfileHandle::ProviderType() const { return OrDefault(Record()).providerType; }
std::string UserApplicationProfileHandle::Username() const { return OrDefault(Record()).username; }

}  // namespace svcpp::core
