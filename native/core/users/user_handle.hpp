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

/** The avatar URL AvatarUrl answers for a cached user (cdnBase: the cache's CDN base). */
std::string AvatarUrlOf(const UserRecord &user, const std::string &cdnBase, UserHandleAvatarType animatedType,
                        UserHandleAvatarType staticType);
/** AvatarUrlOf appended to `out` (a whole-object reader reuses one buffer instead of allocating each URL). */
void AppendAvatarUrl(std::string &out, const UserRecord &user, const std::string &cdnBase,
                     UserHandleAvatarType animatedType, UserHandleAvatarType staticType);

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
    /** One handle per application profile the cache holds for the user (the platform sends them for the signed-in
     * user). */
    std::vector<UserApplicationProfileHandle> UserApplicationProfiles() const;
    /** The user's activity for this application, when they have one. */
    std::optional<Activity> GameActivity() const;
    /** The relationship with the user (None on both axes without one). */
    RelationshipHandle Relationship() const;

    /**
     * read(record, cdnBase) of the whole cached user under the cache's lock, in one lookup; nullopt once the user or
     * the client is gone (then every getter answers its default). For whole-object readers (the C snapshot of a user,
     * capi/support/user_snapshot.cpp): each getter above takes the lock and finds the user again, one field at a time.
     */
    template <class Reader>
    auto ReadRecord(Reader &&read) const
        -> std::optional<decltype(read(std::declval<const UserRecord &>(), std::declval<const std::string &>()))> {
        auto cache = cache_.lock();
        if (!cache) return std::nullopt;
        const UserCache &c = *cache;
        return c.With(id_, [&](const UserRecord &r) { return read(r, c.CdnBase()); });
    }

  private:
    /** read(record) of the user under the cache's lock (see UserCache::With); nullopt once the user or client is gone.
     */
    template <class Read>
    auto With(Read &&read) const -> std::optional<decltype(read(std::declval<const UserRecord &>()))> {
        auto cache = cache_.lock();
        if (!cache) return std::nullopt;
        return cache->With(id_, std::forward<Read>(read));
    }

    std::weak_ptr<const UserCache> cache_;
    uint64_t id_ = 0;
};

}  // namespace svcpp::core
