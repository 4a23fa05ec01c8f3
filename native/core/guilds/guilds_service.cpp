#include "guilds/guilds_service.hpp"

#include <nlohmann/json.hpp>

#include "guilds/guild_json.hpp"
#include "guilds/guilds_routes.hpp"
#include "net/results.hpp"

namespace svcpp::core::guilds {

namespace {
using GuildsOperation = Operation<void(const ClientResult &, const std::vector<GuildMinimal> &)>;
using ChannelsOperation = Operation<void(const ClientResult &, const std::vector<GuildChannel> &)>;
}  // namespace

// Neither query needs a gateway session: the token of UpdateToken is enough.
void GuildsService::GetUserGuilds(ClientGetUserGuildsCallback &&cb) {
    auto op = GuildsOperation::Begin(host_.Ops(), std::move(cb));
    if (auto failure = host_.NoToken()) return op->Fail(*failure);
    // 200 is the platform's page size and more than the guilds a user can join, so one page is all of them.
    host_.Rest(host_.Request(routes::kUserGuilds, {}, "?limit=200"), [op](net::HttpResponse response) {
        std::vector<GuildMinimal> guilds;
        ClientResult result = net::ReadJson(response, guilds, ParseUserGuilds);
        op->Complete(std::move(result), std::move(guilds));
    });
}

void GuildsService::GetGuildChannels(uint64_t guildId, ClientGetGuildChannelsCallback &&cb) {
    auto op = ChannelsOperation::Begin(host_.Ops(), std::move(cb));
    if (auto failure = host_.NoToken()) return op->Fail(*failure);
    host_.Rest(host_.Request(routes::kGuildChannels, {guildId}), [op, guildId](net::HttpResponse response) {
        std::vector<GuildChannel> channels;
        ClientResult result = net::ReadJson(
            response, channels, [guildId](const nlohmann::json &body) { return ParseGuildChannels(body, guildId); });
        op->Complete(std::move(result), std::move(channels));
    });
}

}  // namespace svcpp::core::guilds
