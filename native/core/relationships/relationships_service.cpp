#include "relationships/relationships_service.hpp"

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"
#include "relationships/relationship_groups.hpp"

namespace svcpp::core::relationships {

using Kind = RelationshipEvent::Kind;

std::optional<RelationshipGroupType> GroupOfUser(const UserCache &users, uint64_t userId) {
    auto relationship = users.Relationships().Get(userId);
    if (!relationship) return std::nullopt;
    auto user = users.Get(userId);
    return GroupOf(*relationship, user ? &*user : nullptr);
}

std::vector<RelationshipEvent> Apply(UserCache &users, std::string_view type, const nlohmann::json &data) {
    if (type == "READY") {
        std::vector<RelationshipRecord> records;
        const auto &list = wire::Member(data, "relationships");
        if (list.is_array()) {
            for (const auto &object : list) {
                RelationshipRecord record = ParseRelationship(object);
                if (!record.id) continue;
                UserRecord user = ParseUser(wire::Member(object, "user"));
                if (user.id == record.id) users.Upsert(user);
                records.push_back(record);
            }
        }
        users.Relationships().Replace(records);
        return {};
    }
    const bool added = type == "RELATIONSHIP_ADD";
    if (!added && type != "RELATIONSHIP_REMOVE") return {};
    const RelationshipChange change = ParseRelationshipChange(data, !added);
    if (!change.id) return {};
    UserRecord user = ParseUser(wire::Member(data, "user"));
    if (user.id == change.id) users.Upsert(user);
    const auto before = GroupOfUser(users, change.id);
    if (!users.Relationships().Apply(change)) return {};
    std::vector<RelationshipEvent> events{{added ? Kind::Created : Kind::Deleted, change.id, change.platformAxis}};
    if (GroupOfUser(users, change.id) != before) events.push_back({Kind::GroupsUpdated, change.id});
    return events;
}

void RelationshipsService::Register(DispatchTable &table) {
    for (const char *type : {"READY", "RELATIONSHIP_ADD", "RELATIONSHIP_REMOVE"})
        table.On(type, [this](std::string_view t, const nlohmann::json &data) { Post(Apply(*users_, t, data)); });
}

void RelationshipsService::Post(const std::vector<RelationshipEvent> &events) {
    for (const auto &e : events) {
        switch (e.kind) {
            case Kind::Created: created_.Post(e.userId, e.platformAxis); break;
            case Kind::Deleted: deleted_.Post(e.userId, e.platformAxis); break;
            case Kind::GroupsUpdated: groupsUpdated_.Post(e.userId); break;
        }
    }
}

void RelationshipsService::ReleaseRegistrations() {
    created_.Set({});
    deleted_.Set({});
    groupsUpdated_.Set({});
}

std::optional<RelationshipHandle> RelationshipsService::Relationship(uint64_t userId) const {
    if (!users_->Relationships().Get(userId)) return std::nullopt;
    return RelationshipHandle(users_, userId);
}

std::vector<RelationshipHandle> RelationshipsService::All() const {
    std::vector<RelationshipHandle> handles;
    for (const auto &r : users_->Relationships().All()) handles.emplace_back(users_, r.id);
    return handles;
}

std::vector<RelationshipHandle> RelationshipsService::ByGroup(RelationshipGroupType group) const {
    std::vector<RelationshipHandle> handles;
    for (uint64_t id : MembersOf(group, users_->Relationships().All(), *users_)) handles.emplace_back(users_, id);
    return handles;
}

std::vector<UserHandle> RelationshipsService::SearchFriends(const std::string &search) const {
    std::vector<UserHandle> handles;
    for (uint64_t id : relationships::SearchFriends(search, users_->Relationships().All(), *users_))
        handles.emplace_back(users_, id);
    return handles;
}

}  // namespace svcpp::core::relationships
