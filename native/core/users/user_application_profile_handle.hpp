// UserApplicationProfileHandle: the live handle of the C ABI's Svcpp_UserApplicationProfileHandle. It names one
// profile (external identity) of a cached user and reads the current state on every call; once the profile, the
// user or the client is gone every getter returns the default and IsValid() is false. Copying copies the reference.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "users/user_cache.hpp"

namespace svcpp::core {

class UserApplicationProfileHandle {
  public:
    UserApplicationProfileHandle() = default;
    /** `identity` says which profile: the one with the same provider type, provider id and provider-issued id. */
    UserApplicationProfileHandle(std::weak_ptr<const UserCache> cache, uint64_t userId,
                                 ApplicationProfileRecord identity)
        : cache_(std::move(cache)), userId_(userId), identity_(std::move(identity)) {}

    bool IsValid() const;
    std::string AvatarHash() const;
    std::string Metadata() const;
    std::optional<std::string> ProviderId() const;
    std::string ProviderIssuedUserId() const;
    ExternalIdentityProviderType ProviderType() const;
    std::string Username() const;

  private:
    /** read(profile) under the cache's lock (UserCache::With); nullopt once the profile, user or client is gone. */
    template <class Read>
    auto With(Read &&read) const -> std::optional<decltype(read(std::declval<const ApplicationProfileRecord &>()))> {
        using Result = decltype(read(std::declval<const ApplicationProfileRecord &>()));
        auto cache = cache_.lock();
        if (!cache) return std::nullopt;
        return cache
            ->With(userId_,
                   [&](const UserRecord &user) -> std::optional<Result> {
                       if (!user.applicationProfiles) return std::nullopt;
                       for (const auto &profile : *user.applicationProfiles) {
                           if (profile.SameIdentity(identity_)) return read(profile);
                       }
                       return std::nullopt;
                   })
            .value_or(std::nullopt);
    }

    std::weak_ptr<const UserCache> cache_;
    uint64_t userId_ = 0;
    ApplicationProfileRecord identity_;
};

}  // namespace svcpp::core
