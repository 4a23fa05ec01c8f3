// Code using the reference SDK's names (a method, a handle getter, an enum value): it compiles against svcpp.hpp,
// and each use warns that the name is deprecated, naming ours. Compiled, not run, by a ctest that checks the warnings.
#include "svcpp.hpp"

void SendRequest(svcpp::Client &client) {
    client.SendDiscordFriendRequestById(1, [](svcpp::ClientResult) {});
}

svcpp::RelationshipType PlatformAxis(svcpp::RelationshipHandle const &relationship) {
    return relationship.DiscordRelationshipType();
}

svcpp::ExternalIdentityProviderType BotProvider() { return svcpp::ExternalIdentityProviderType::DiscordBot; }
