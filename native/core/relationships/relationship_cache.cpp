#include "relationships/relationship_cache.hpp"

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core {

namespace {
/** The wire's relationship type numbers are the enum's (1 friend, 2 blocked, 3 incoming, 4 outgoing); anything else is
 * None. */
RelationshipType TypeOf(int32_t raw) {
    switch (raw) {
        case 1: return RelationshipType::Friend;
        case 2: return RelationshipType::Blocked;
        case 3: return RelationshipType::PendingIncoming;
        case 4: return RelationshipType::PendingOutgoing;
        default: return RelationshipType::None;
    }
}
}  // namespace

RelationshipRecord ParseRelationship(const nlohmann::json &object) {
    RelationshipRecord r;
    r.id = wire::Snowflake(object, "id");
    r.platform = TypeOf(wire::Int(object, "type", 0));
    // Blocking exists on the platform axis only (a game type 2 would be a platform bug; ignore it).
    r.game = TypeOf(wire::Int(object, "game_type", 0));
    if (r.game == RelationshipType::Blocked) r.game = RelationshipType::None;
    r.isSpamRequest = wire::Bool(object, "is_spam_request");
    return r;
}

RelationshipChange ParseRelationshipChange(const nlohmann::json &data, bool removed) {
    RelationshipChange c;
    c.id = wire::Snowflake(data, "id");
    c.platformAxis = wire::String(data, "axis") != "game";
    c.type = removed ? RelationshipType::None : TypeOf(wire::Int(data, "type", 0));
    if (!c.platformAxis && c.type == RelationshipType::Blocked) c.type = RelationshipType::None;
    c.isSpamRequest = wire::Bool(data, "is_spam_request");
    return c;
}

void RelationshipCache::Replace(const std::vector<RelationshipRecord> &records) {
    std::lock_guard lock(mutex_);
    records_.clear();
    for (const auto &r : records)
        if (r.id && !r.IsEmpty()) records_[r.id] = r;
}

bool RelationshipCache::Apply(const RelationshipChange &change) {
    if (!change.id) return false;
    std::lock_guard lock(mutex_);
    RelationshipRecord before;
    before.id = change.id;
    if (auto it = records_.find(change.id); it != records_.end()) before = it->second;
    RelationshipRecord after = before;
    (change.platformAxis ? after.platform : after.game) = change.type;
    // The spam flag belongs to a pending incoming request; it goes when no axis is incoming any more.
    const bool incoming =
        after.platform == RelationshipType::PendingIncoming || after.game == RelationshipType::PendingIncoming;
    if (change.type == RelationshipType::PendingIncoming)
        after.isSpamRequest = change.isSpamRequest;
    else if (!incoming)
        after.isSpamRequest = false;
    if (after == before) return false;
    if (after.IsEmpty())
        records_.erase(change.id);
    else
        records_[change.id] = after;
    return true;
}

std::optional<RelationshipRecord> RelationshipCache::Get(uint64_t id) const {
    std::lock_guard lock(mutex_);
    auto it = records_.find(id);
    if (it == records_.end()) return std::nullopt;
    return it->second;
}

std::vector<RelationshipRecord> RelationshipCache::All() const {
    std::lock_guard lock(mutex_);
    std::vector<RelationshipRecord> out;
    out.reserve(records_.size());
    for (const auto &[id, r] : records_) out.push_back(r);
    return out;
}

void RelationshipCache::Clear() {
    std::lock_guard lock(mutex_);
    records_.clear();
}

}  // namespace svcpp::core
