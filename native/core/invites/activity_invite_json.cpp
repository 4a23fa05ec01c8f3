#include "invites/activity_invite_json.hpp"

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core::invites {

ActivityInvite ParseActivityInvite(const nlohmann::json &o) {
    ActivityInvite invite;
    invite.senderId = wire::Snowflake(o, "sender_id");
    invite.channelId = wire::Snowflake(o, "channel_id");
    invite.messageId = wire::Snowflake(o, "message_id");
    const int32_t type = wire::Int(o, "type", 0);
    invite.type = IsActivityActionTypes(type) ? static_cast<ActivityActionTypes>(type) : ActivityActionTypes::Invalid;
    invite.applicationId = wire::Snowflake(o, "application_id");
    invite.parentApplicationId = wire::Snowflake(o, "parent_application_id");
    invite.partyId = wire::String(o, "party_id");
    invite.sessionId = wire::String(o, "session_id");
    invite.isValid = wire::Bool(o, "is_valid");
    return invite;
}

nlohmann::json InviteRequestBody(ActivityActionTypes type, const std::string &content) {
    nlohmann::json body = {{"type", static_cast<int32_t>(type)}};
    if (!content.empty()) body["content"] = content;
    return body;
}

std::string JoinSecretOf(const nlohmann::json &body) { return wire::String(body, "secret"); }

}  // namespace svcpp::core::invites
