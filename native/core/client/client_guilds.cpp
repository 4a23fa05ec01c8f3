// Client: the guild queries (sdk-surface.md §3.7 GetUserGuilds, GetGuildChannels). Plain REST calls with the
// token of UpdateToken; the JSON mapping lives in guilds/guild_json.
#include <nlohmann/json.hpp>

#include "client/client_net.hpp"
#include "guilds/guild_json.hpp"
#include "net/results.hpp"

namespace svcpp::core {

namespace {

using GuildsOperation = Operation<void(const ClientResult &, const std::vector<GuildMinimal> &)>;
using ChannelsOperation = Operation<void(const ClientResult &, const std::vector<GuildChannel> &)>;

constexpr const char *kNoToken = "no token: call UpdateToken first";

net::HttpRequest BearerGet(std::string url, std::string route, const std::string &token) {
    net::HttpRequest request;
    request.url = std::move(url);
    request.route = std::move(route);
    request.headers.emplace_back("Authorization", "Bearer " + token);
    return request;
}

/** The response's JSON body parsed by parse, or the failure it is. */
template <class T, class Parse>
ClientResult Read(const net::HttpResponse &response, T &out, Parse parse) {
    ClientResult result = net::ResultFromHttp(response);
    if (result.type != ErrorType::None) return result;
    if (auto body = net::JsonBody(response, result)) out = parse(*body);
    return result;
}

}  // namespace

void Client::GetUserGuilds(ClientGetUserGuildsCallback &&cb) {
    auto op = GuildsOperation::Begin(operations_, std::move(cb));
    const std::string token = CurrentToken();
    if (token.empty()) return op->Fail(FailureResult(ErrorType::ValidationError, kNoToken));
    // 200 is the platform's page size and more than the guilds a user can join, so one page is all of them.
    Rest(BearerGet(apiBase_ + "/users/@me/guilds?limit=200", "GET /users/@me/guilds", token), [op](net::HttpResponse response) {
        std::vector<GuildMinimal> guilds;
        ClientResult result = Read(response, guilds, guilds::ParseUserGuilds);
        op->Complete(std::move(result), std::move(guilds));
    });
}

void Client::GetGuildChannels(uint64_t guildId, ClientGetGuildChannelsCallback &&cb) {
    auto op = ChannelsOperation::Begin(operations_, std::move(cb));
    const std::string token = CurrentToken();
    if (token.empty()) return op->Fail(FailureResult(ErrorType::ValidationError, kNoToken));
    const std::string guild = std::to_string(guildId);
    // The guild id is a major parameter: it stays in the rate-limit route key.
    Rest(BearerGet(apiBase_ + "/guilds/" + guild + "/channels", "GET /guilds/" + guild + "/channels", token),
         [op, guildId](net::HttpResponse response) {
             std::vector<GuildChannel> channels;
             ClientResult result = Read(response, channels, [guildId](const nlohmann::json &body) { return guilds::ParseGuildChannels(body, guildId); });
             op->Complete(std::move(result), std::move(channels));
         });
}

}  // namespace svcpp::core
