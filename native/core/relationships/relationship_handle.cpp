#include "relationships/relationship_handle.hpp"

#include "users/user_handle.hpp"

namespace svcpp::core {

RelationshipRecord RelationshipHandle::Record() const {
    auto cache = cache_.lock();
    if (!cache) return {};
    return cache->Relationships().Get(id_).value_or(RelationshipRecord{});
}

bool RelationshipHandle::IsValid() const { return !cache_.expired() && id_ != 0; }
uint64_t RelationshipHandle::Id() const { return IsValid() ? id_ : 0; }
RelationshipType RelationshipHandle::PlatformRelationshipType() const { return Record().platform; }
RelationshipType RelationshipHandle::GameRelationshipType() const { return Record().game; }
bool RelationshipHandle::IsSpamRequest() const { return Record().isSpamRequest; }

std::optional<UserHandle> RelationshipHandle::User() const {
    auto cache = cache_.lock();
    if (!cache || !cache->Contains(id_)) return std::nullopt;
    return UserHandle(cache_, id_);
}

}  // namespace svcpp::core
