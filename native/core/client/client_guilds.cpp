// Client: the guild queries (GetUserGuilds, GetGuildChannels; native/SEMANTICS.md "Guilds"). Plain REST calls with the
// token of UpdateToken; the JSON mapping lives in guilds/guild_json.
#include <nlohmann/json.hpp>

#include "auth/requests.hpp"
#include "client/client_net.hpp"
#include "guilds/guild_json.hpp"
#include "net/results.hpp"

namespace svcpp::core {

namespace {

using GuildsOperation = Operation<void(const ClientResult &, const std::vector<GuildMinimal> &)>;
using ChannelsOperation = Operation<void(const ClientResult &, const std::vector<GuildChannel> &)>;

}  // namespace

void Client::GetUserGuilds(ClientGetUserGuildsCallback &&cb) {
    auto op = GuildsOperation::Begin(operations_, std::move(cb));
    const std::string token = CurrentToken();
    if (token.empty()) return op->Fail(FailureResult(ErrorType::ValidationError, kNoTokenMessage));
    // 200 is the platform's page size and more than the guilds a user can join, so one page is all of them.
    Rest(auth::BearerRequest("GET", apiBase_ + "/users/@me/guilds?limit=200", "GET /users/@me/guilds", token),
         [op](net::HttpResponse response) {
             std::vector<GuildMinimal> guilds;
             ClientResult result = net::ReadJson(response, guilds, guilds::ParseUserGuilds);
             op->Complete(std::move(result), std::move(guilds));
         });
}

void Client::GetGuildChannels(uint64_t guildId, ClientGetGuildChannelsCallback &&cb) {
    auto op = ChannelsOperation::Begin(operations_, std::move(cb));
    const std::string token = CurrentToken();
    if (token.empty()) return op->Fail(FailureResult(ErrorType::ValidationError, kNoTokenMessage));
    const std::string guild = std::to_string(guildId);
    // The guild id is a major parameter: it stays in the rate-limit route key.
    Rest(auth::BearerRequest("GET", apiBase_ + "/guilds/" + guild + "/channels", "GET /guilds/" + guild + "/channels",
                             token),
         [op, guildId](net::HttpResponse response) {
             std::vector<GuildChannel> channels;
             ClientResult result = net::ReadJson(response, channels, [guildId](const nlohmann::json &body) {
                 return guilds::ParseGuildChannels(body, guildId);
             });
             op->Complete(std::move(result), std::move(channels));
         });
}

}  // namespace svcpp::core
