// Game invites on the wire (platform/PROTOCOL.md §10.3): the invite object of ACTIVITY_INVITE_CREATE /
// ACTIVITY_INVITE_UPDATE and the request bodies of the invite routes.
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "generated/values.hpp"

namespace svcpp::core::invites {

/** An invite object -> ActivityInvite (tolerant; an unknown type reads Invalid, MessageId 0 when absent). */
ActivityInvite ParseActivityInvite(const nlohmann::json &object);

/** The body of POST /users/{id}/activity-invites: `{type, content?}` (content left out when empty). */
nlohmann::json InviteRequestBody(ActivityActionTypes type, const std::string &content);

/** The join secret of an accept answer (`{secret}`), "" when absent. */
std::string JoinSecretOf(const nlohmann::json &body);

}  // namespace svcpp::core::invites
