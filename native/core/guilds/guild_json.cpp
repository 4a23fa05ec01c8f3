#include "guilds/guild_json.hpp"

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core::guilds {

namespace {

using wire::Bool;
using wire::Int;
using wire::Snowflake;
using wire::String;

/** True when an @everyone overwrite takes View Channel or Send Messages away from every member. */
bool EveryoneDenied(const nlohmann::json &channel, uint64_t guildId) {
    auto overwrites = channel.find("permission_overwrites");
    if (overwrites == channel.end() || !overwrites->is_array()) return false;
    for (const auto &overwrite : *overwrites) {
        if (!overwrite.is_object() || Int(overwrite, "type", -1) != 0 || Snowflake(overwrite, "id") != guildId)
            continue;
        if (Snowflake(overwrite, "deny") & (kViewChannel | kSendMessages)) return true;
    }
    return false;
}

GuildChannel ParseChannel(const nlohmann::json &channel, uint64_t guildId) {
    GuildChannel c;
    c.id = Snowflake(channel, "id");
    c.name = String(channel, "name");
    c.type = static_cast<ChannelType>(Int(channel, "type", 0));
    c.position = Int(channel, "position", 0);
    if (const uint64_t parent = Snowflake(channel, "parent_id")) c.parentId = parent;
    const uint64_t needed = kManageChannels | kViewChannel | kSendMessages;
    const auto &linked = wire::Member(channel, "linked_lobby");
    if (linked.is_object() && Snowflake(linked, "lobby_id"))
        c.linkedLobby = LinkedLobby{Snowflake(linked, "application_id"), Snowflake(linked, "lobby_id")};
    // A channel linked to a lobby is not linkable again (native/SEMANTICS.md "Guilds").
    c.isLinkable = c.type == ChannelType::GuildText && !Bool(channel, "nsfw") && !c.linkedLobby &&
                   (Snowflake(channel, "permissions") & needed) == needed;
    c.isViewableAndWriteableByAllMembers = !EveryoneDenied(channel, guildId);
    return c;
}

}  // namespace

std::vector<GuildMinimal> ParseUserGuilds(const nlohmann::json &body) {
    std::vector<GuildMinimal> guilds;
    if (!body.is_array()) return guilds;
    for (const auto &guild : body) {
        if (!guild.is_object()) continue;
        GuildMinimal g{Snowflake(guild, "id"), String(guild, "name")};
        if (g.id) guilds.push_back(std::move(g));
    }
    return guilds;
}

std::vector<GuildChannel> ParseGuildChannels(const nlohmann::json &body, uint64_t guildId) {
    std::vector<GuildChannel> channels;
    if (!body.is_array()) return channels;
    for (const auto &channel : body) {
        if (!channel.is_object()) continue;
        GuildChannel c = ParseChannel(channel, guildId);
        if (c.id) channels.push_back(std::move(c));
    }
    std::stable_sort(channels.begin(), channels.end(), [](const GuildChannel &a, const GuildChannel &b) {
        return a.position != b.position ? a.position < b.position : a.id < b.id;
    });
    return channels;
}

}  // namespace svcpp::core::guilds
