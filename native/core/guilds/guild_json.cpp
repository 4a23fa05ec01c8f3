#include "guilds/guild_json.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

namespace svcpp::core::guilds {

namespace {

/** A snowflake (or permission set) sent as a decimal string; 0 when absent or malformed. */
uint64_t DecimalField(const nlohmann::json &o, const char *key) {
    auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return 0;
    const std::string &text = it->get_ref<const std::string &>();
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return 0;
    return std::strtoull(text.c_str(), nullptr, 10);
}

std::string StringField(const nlohmann::json &o, const char *key) {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/** Wrong types read as the default (json::value would throw on them). */
int32_t IntField(const nlohmann::json &o, const char *key, int32_t fallback) {
    auto it = o.find(key);
    return it != o.end() && it->is_number_integer() ? it->get<int32_t>() : fallback;
}

bool BoolField(const nlohmann::json &o, const char *key) {
    auto it = o.find(key);
    return it != o.end() && it->is_boolean() && it->get<bool>();
}

/** True when an @everyone overwrite takes View Channel or Send Messages away from every member. */
bool EveryoneDenied(const nlohmann::json &channel, uint64_t guildId) {
    auto overwrites = channel.find("permission_overwrites");
    if (overwrites == channel.end() || !overwrites->is_array()) return false;
    for (const auto &overwrite : *overwrites) {
        if (!overwrite.is_object() || IntField(overwrite, "type", -1) != 0 || DecimalField(overwrite, "id") != guildId) continue;
        if (DecimalField(overwrite, "deny") & (kViewChannel | kSendMessages)) return true;
    }
    return false;
}

GuildChannel ParseChannel(const nlohmann::json &channel, uint64_t guildId) {
    GuildChannel c;
    c.id = DecimalField(channel, "id");
    c.name = StringField(channel, "name");
    c.type = static_cast<ChannelType>(IntField(channel, "type", 0));
    c.position = IntField(channel, "position", 0);
    if (const uint64_t parent = DecimalField(channel, "parent_id")) c.parentId = parent;
    const uint64_t needed = kManageChannels | kViewChannel | kSendMessages;
    c.isLinkable = c.type == ChannelType::GuildText && !BoolField(channel, "nsfw") && (DecimalField(channel, "permissions") & needed) == needed;
    c.isViewableAndWriteableByAllMembers = !EveryoneDenied(channel, guildId);
    return c;
}

}  // namespace

std::vector<GuildMinimal> ParseUserGuilds(const nlohmann::json &body) {
    std::vector<GuildMinimal> guilds;
    if (!body.is_array()) return guilds;
    for (const auto &guild : body) {
        if (!guild.is_object()) continue;
        GuildMinimal g{DecimalField(guild, "id"), StringField(guild, "name")};
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
    std::stable_sort(channels.begin(), channels.end(),
                     [](const GuildChannel &a, const GuildChannel &b) { return a.position != b.position ? a.position < b.position : a.id < b.id; });
    return channels;
}

}  // namespace svcpp::core::guilds
