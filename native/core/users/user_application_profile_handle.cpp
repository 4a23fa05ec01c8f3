#include "users/user_application_profile_handle.hpp"

namespace svcpp::core {

// Each getter copies only what it answers (With); a gone profile reads as an empty one of unknown type.
using Profile = ApplicationProfileRecord;

bool UserApplicationProfileHandle::IsValid() const {
    return With([](const Profile &) { return true; }).has_value();
}
std::string UserApplicationProfileHandle::AvatarHash() const {
    return With([](const Profile &p) { return p.avatarHash; }).value_or(std::string());
}
std::string UserApplicationProfileHandle::Metadata() const {
    return With([](const Profile &p) { return p.metadata; }).value_or(std::string());
}
std::optional<std::string> UserApplicationProfileHandle::ProviderId() const {
    return With([](const Profile &p) { return p.providerId; }).value_or(std::nullopt);
}
std::string UserApplicationProfileHandle::ProviderIssuedUserId() const {
    return With([](const Profile &p) { return p.providerIssuedUserId; }).value_or(std::string());
}
ExternalIdentityProviderType UserApplicationProfileHandle::ProviderType() const {
    return With([](const Profile &p) { return p.providerType; }).value_or(ExternalIdentityProviderType::Unknown);
}
std::string UserApplicationProfileHandle::Username() const {
    return With([](const Profile &p) { return p.username; }).value_or(std::string());
}

}  // namespace svcpp::core
