// RelationshipHandle: the live handle of Svcpp_RelationshipHandle. It names a user and reads the relationship with
// them from the client's cache on every call (both axes); a user without a relationship reads None. Once the client
// is gone every getter returns the default and IsValid() is false. Copying copies the reference.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>

#include "relationships/relationship_cache.hpp"

namespace svcpp::core {

class UserCache;
class UserHandle;

class RelationshipHandle {
  public:
    RelationshipHandle() = default;
    RelationshipHandle(std::weak_ptr<const UserCache> cache, uint64_t id) : cache_(std::move(cache)), id_(id) {}

    /** True while the client (its cache) lives; a None relationship is still a valid one. */
    bool IsValid() const;
    uint64_t Id() const;
    RelationshipType PlatformRelationshipType() const;
    RelationshipType GameRelationshipType() const;
    bool IsSpamRequest() const;
    /** The other user, when the cache knows them. */
    std::optional<UserHandle> User() const;

  private:
    RelationshipRecord Record() const;

    std::weak_ptr<const UserCache> cache_;
    uint64_t id_ = 0;
};

}  // namespace svcpp::core
