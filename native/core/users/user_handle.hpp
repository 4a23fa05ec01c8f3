// UserHandle: the live handle of the C ABI's Svcpp_UserHandle. It names a user of a client's cache and reads
// the current state on every call; once the client is gone (the cache with it) every getter returns the
// default and IsValid() is false. Copying copies the reference.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "relationships/relationship_handle.hpp"
#include "users/user_application_profile_handle.hpp"
#include "users/user_cache.hpp"

namespace svcpp::core {

class UserHandle {
public:
    UserHandle() = default;
    UserHandle(std::weak_ptr<const UserCache> cache, uint64_t id) : cache_(std::move(cache)), id_(id) {}

    bool IsValid() const;
    uint64_t Id() const;
    std::string Username() const;
    std::optional<std::string> GlobalName() const;
    std::string DisplayName() const;
    std::optional<std::string> Avatar() const;
    std::string AvatarUrl(UserHandleAvatarType animatedType, UserHandleAvatarType staticType) const;
    StatusType Status() const;
    bool IsProvisional() const;
    std::optional<std::string> GuildTag() const;
    /** One handle per application profile the cache holds for the user (the platform sends them for the signed-in user). */
    std::vector<UserApplicationProfileHandle> UserApplicationProfiles() const;
    /** The user's activity for this application, when they have one. */
    std::optional<Activity> GameActivity() const;
    /** The relationship with the user (None on both axes without one). */
    RelationshipHandle Relationship() const;

private:
    /** field(record) of the cached user, or fallback when the user or the client is gone (no copy of the record). */
    template <class T, class Field>
    T Read(Field &&field, T fallback = T{}) const {
        auto cache = cache_.lock();
        if (cache) cache->With(id_, [&](const UserRecord &r) { fallback = field(r); });
        return fallback;
    }

    std::weak_ptr<const UserCache> cache_;
    uint64_t id_ = 0;
};

}  // namespace svcpp::core
