// The set of live clients, for the global pump (Svcpp_RunCallbacks), Svcpp_ResetCallbacks and the
// global wakeup hook.
#pragma once
#include <memory>
#include <vector>

#include "generated/callbacks.hpp"

namespace svcpp::core {
class Client;

namespace clients {
void Add(const std::shared_ptr<Client> &client);
void Remove(const Client *client);
std::vector<std::shared_ptr<Client>> Snapshot();
/** Replaces the global hook; the previous one is released on the calling thread. */
void SetGlobalHook(CallbacksPendingFn &&hook);
/** Fires the global hook (a client's queue became non-empty). */
void NotifyPending();
}  // namespace clients
}  // namespace svcpp::core
