#include "relationships/relationship_groups.hpp"

#include <algorithm>
#include <cctype>

namespace svcpp::core::relationships {

namespace {

bool IsOnline(StatusType status) {
    return status == StatusType::Online || status == StatusType::Idle || status == StatusType::Dnd ||
           status == StatusType::Streaming;
}

std::string Fold(const std::string &s) {
    std::string out = s;
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

struct Entry {
    uint64_t id;
    std::string key;  // folded display name
};

std::vector<uint64_t> Ordered(std::vector<Entry> entries) {
    std::sort(entries.begin(), entries.end(),
              [](const Entry &a, const Entry &b) { return a.key != b.key ? a.key < b.key : a.id < b.id; });
    std::vector<uint64_t> ids;
    ids.reserve(entries.size());
    for (const auto &e : entries) ids.push_back(e.id);
    return ids;
}

}  // namespace

std::optional<RelationshipGroupType> GroupOf(const RelationshipRecord &relationship, const UserRecord *user) {
    if (!relationship.IsFriend()) return std::nullopt;
    if (!user || !IsOnline(user->status)) return RelationshipGroupType::Offline;
    return user->gameActivity ? RelationshipGroupType::OnlinePlayingGame : RelationshipGroupType::OnlineElsewhere;
}

std::vector<uint64_t> MembersOf(RelationshipGroupType group, const std::vector<RelationshipRecord> &relationships,
                                const UserCache &users) {
    std::vector<Entry> entries;
    for (const auto &r : relationships) {
        auto user = users.Get(r.id);
        if (GroupOf(r, user ? &*user : nullptr) != group) continue;
        entries.push_back({r.id, user ? Fold(DisplayNameOf(*user)) : std::string()});
    }
    return Ordered(std::move(entries));
}

std::vector<uint64_t> SearchFriends(const std::string &query, const std::vector<RelationshipRecord> &relationships,
                                    const UserCache &users) {
    const std::string needle = Fold(query);
    std::vector<Entry> entries;
    for (const auto &r : relationships) {
        if (!r.IsFriend()) continue;
        auto user = users.Get(r.id);
        if (!user) continue;  // nothing to match against (and nothing a UserHandle could show)
        const std::string display = Fold(DisplayNameOf(*user));
        if (Fold(user->username).find(needle) == std::string::npos && display.find(needle) == std::string::npos)
            continue;
        entries.push_back({r.id, display});
    }
    return Ordered(std::move(entries));
}

}  // namespace svcpp::core::relationships
