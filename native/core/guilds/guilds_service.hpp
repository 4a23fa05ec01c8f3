// The guilds area (native/SEMANTICS.md "Guilds"): the guild queries, plain REST calls with the token of UpdateToken.
// The area keeps no cache and handles no dispatch: a guild's channels are read when a game links one to a lobby.
#pragma once
#include <cstdint>

#include "generated/callbacks.hpp"
#include "runtime/service_host.hpp"

namespace svcpp::core::guilds {

class GuildsService {
  public:
    explicit GuildsService(ServiceHost &host) : host_(host) {}

    void GetUserGuilds(ClientGetUserGuildsCallback &&cb);
    void GetGuildChannels(uint64_t guildId, ClientGetGuildChannelsCallback &&cb);

  private:
    ServiceHost &host_;
};

}  // namespace svcpp::core::guilds
