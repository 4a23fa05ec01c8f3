// The client's relationships: one record per other user with both axes (platform and game), filled from READY's
// `relationships` and kept current by RELATIONSHIP_ADD / RELATIONSHIP_REMOVE (platform/PROTOCOL.md §10.1).
// Written on the I/O thread, read from any thread (handles, GetRelationships); a user with None on both axes has
// no record.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "generated/enums.hpp"

namespace svcpp::core {

struct RelationshipRecord {
    uint64_t id = 0;  // the other user
    RelationshipType platform = RelationshipType::None;
    RelationshipType game = RelationshipType::None;
    bool isSpamRequest = false;

    bool IsFriend() const { return platform == RelationshipType::Friend || game == RelationshipType::Friend; }
    bool IsEmpty() const { return platform == RelationshipType::None && game == RelationshipType::None; }
    bool operator==(const RelationshipRecord &) const = default;
};

/** One axis of one relationship changed (a RELATIONSHIP_ADD / RELATIONSHIP_REMOVE dispatch). */
struct RelationshipChange {
    uint64_t id = 0;
    bool platformAxis = true;
    RelationshipType type = RelationshipType::None;  // the new type; None on REMOVE
    bool isSpamRequest = false;
};

/** A relationship object (READY, GET /users/@me/relationships) -> record (id 0 when it has none). */
RelationshipRecord ParseRelationship(const nlohmann::json &object);
/** A RELATIONSHIP_ADD / RELATIONSHIP_REMOVE payload -> change (id 0 when it has none); `removed` forces type None. */
RelationshipChange ParseRelationshipChange(const nlohmann::json &data, bool removed);

class RelationshipCache {
  public:
    /** Replaces everything (READY). Records with None on both axes are dropped. */
    void Replace(const std::vector<RelationshipRecord> &records);
    /** Applies one axis change; returns false when it changed nothing. */
    bool Apply(const RelationshipChange &change);
    std::optional<RelationshipRecord> Get(uint64_t id) const;
    /** Every relationship, ordered by user id. */
    std::vector<RelationshipRecord> All() const;
    void Clear();

  private:
    mutable std::mutex mutex_;
    std::map<uint64_t, RelationshipRecord> records_;
};

}  // namespace svcpp::core
