// The platform's guild and channel objects -> the SDK's GuildMinimal / GuildChannel values. Pure functions
// (no I/O), so the mapping rules are unit-tested on their own.
#pragma once
#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "generated/values.hpp"

namespace svcpp::core::guilds {

/** Permission bits the SDK reads (the platform's permission bit set). */
inline constexpr uint64_t kManageChannels = uint64_t{1} << 4;
inline constexpr uint64_t kViewChannel = uint64_t{1} << 10;
inline constexpr uint64_t kSendMessages = uint64_t{1} << 11;

/** GET /users/@me/guilds -> {id, name} per guild; entries without a valid id are skipped. */
std::vector<GuildMinimal> ParseUserGuilds(const nlohmann::json &body);

/**
 * GET /guilds/{id}/channels -> GuildChannels sorted by position (then id). IsLinkable: a text channel, not NSFW, not
 * linked, whose `permissions` (the caller's, in that channel) hold Manage Channels, View Channel and Send Messages.
 * IsViewableAndWriteableByAllMembers: no @everyone overwrite (role id = guild id) denies View Channel or Send
 * Messages. LinkedLobby comes from the channel's `linked_lobby {application_id, lobby_id}`; a linked channel is
 * not linkable.
 */
std::vector<GuildChannel> ParseGuildChannels(const nlohmann::json &body, uint64_t guildId);

}  // namespace svcpp::core::guilds
