#include "relationships/relationship_rules.hpp"

#include <algorithm>
#include <cctype>

namespace svcpp::core::relationships {

namespace {
const char *AxisName(Axis axis) { return axis == Axis::Platform ? "platform" : "game"; }

bool EqualsIgnoreCase(const std::string &a, const std::string &b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
               return std::tolower(x) == std::tolower(y);
           });
}
}  // namespace

std::optional<std::string> CheckTransition(const Self &self, uint64_t target, const RelationshipRecord &current,
                                           Action action, Axis axis) {
    if (target == 0) return "userId must not be 0";
    if (target == self.id) return "a relationship with yourself is not possible";
    const bool platformAxis = axis == Axis::Platform;
    const RelationshipType type = platformAxis ? current.platform : current.game;
    const std::string name = AxisName(axis);
    // Provisional accounts have game relationships and blocks only (PROTOCOL.md §10.1, 80011).
    const bool needsPlatformAxis =
        platformAxis && action != Action::Block && action != Action::Unblock && action != Action::Remove;
    if (needsPlatformAxis && self.provisional) return "provisional accounts have no platform relationships";
    switch (action) {
        case Action::SendRequest:
            if (current.platform == RelationshipType::Blocked) return "the user is blocked: unblock them first";
            if (type == RelationshipType::Friend) return "already " + name + " friends";
            if (type == RelationshipType::PendingOutgoing)
                return "a " + name + " friend request to this user is already pending";
            return std::nullopt;  // none, or pending incoming (which the request accepts)
        case Action::Accept:
        case Action::Reject:
            if (type != RelationshipType::PendingIncoming)
                return "no pending incoming " + name + " friend request from this user";
            return std::nullopt;
        case Action::Cancel:
            if (type != RelationshipType::PendingOutgoing)
                return "no pending outgoing " + name + " friend request to this user";
            return std::nullopt;
        case Action::Remove:
            if (platformAxis ? !current.IsFriend() : current.game != RelationshipType::Friend)
                return "not " + name + " friends with this user";
            return std::nullopt;
        case Action::Block:
            if (current.platform == RelationshipType::Blocked) return "the user is already blocked";
            return std::nullopt;
        case Action::Unblock:
            if (current.platform != RelationshipType::Blocked) return "the user is not blocked";
            return std::nullopt;
    }
    return std::nullopt;
}

std::optional<std::string> CheckRequestByName(const Self &self, const std::string &ownUsername,
                                              const std::string &username, Axis axis) {
    if (username.empty()) return "username must not be empty";
    if (EqualsIgnoreCase(username, ownUsername)) return "a relationship with yourself is not possible";
    if (axis == Axis::Platform && self.provisional) return "provisional accounts have no platform relationships";
    return std::nullopt;
}

}  // namespace svcpp::core::relationships
