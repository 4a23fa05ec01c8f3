// The client caches a message or channel handle reads through. Weak: once the client (and so its caches)
// is gone, every handle reads defaults.
#pragma once
#include <functional>
#include <memory>

#include "lobbies/lobby_cache.hpp"
#include "messages/message_cache.hpp"
#include "users/user_cache.hpp"
#include "voice/lobby_call_reader.hpp"

namespace svcpp::core {

struct CacheRefs {
    std::weak_ptr<const UserCache> users;
    std::weak_ptr<const LobbyCache> lobbies;
    std::weak_ptr<const MessageCache> messages;
    std::weak_ptr<const voice::LobbyCallReader> lobbyCalls;  // a message's lobby reads its call through it
};

/** The client's caches as handles need them; a function because the voice area exists after the others. */
using CacheRefsFn = std::function<CacheRefs()>;

}  // namespace svcpp::core
