#include "client/client_registry.hpp"

#include <algorithm>
#include <mutex>

#include "client/client.hpp"

namespace svcpp::core::clients {
namespace {
std::mutex &Mutex() {
    static std::mutex m;
    return m;
}
std::vector<std::weak_ptr<Client>> &Live() {
    static auto *live = new std::vector<std::weak_ptr<Client>>();  // never destroyed: outlives static teardown
    return *live;
}
std::mutex &HookMutex() {
    static std::mutex m;
    return m;
}
SharedCallbacksPendingFn &Hook() {
    static auto *hook = new SharedCallbacksPendingFn();
    return *hook;
}
}  // namespace

void Add(const std::shared_ptr<Client> &client) {
    std::lock_guard lock(Mutex());
    Live().push_back(client);
}

void Remove(const Client *client) {
    std::lock_guard lock(Mutex());
    auto &live = Live();
    live.erase(std::remove_if(live.begin(), live.end(),
                              [client](const std::weak_ptr<Client> &w) {
                                  auto c = w.lock();
                                  return !c || c.get() == client;
                              }),
               live.end());
}

std::vector<std::shared_ptr<Client>> Snapshot() {
    std::lock_guard lock(Mutex());
    std::vector<std::shared_ptr<Client>> out;
    for (auto &w : Live()) {
        if (auto c = w.lock()) out.push_back(std::move(c));
    }
    return out;
}

void SetGlobalHook(CallbacksPendingFn &&hook) {
    auto next = Share(std::move(hook));
    SharedCallbacksPendingFn previous;
    {
        std::lock_guard lock(HookMutex());
        previous = std::exchange(Hook(), std::move(next));
    }
    // Announce work that is already queued, as the per-client hook does at registration.
    bool pending = false;
    for (auto &c : Snapshot()) pending = pending || c->HasPendingCallbacks();
    if (pending) NotifyPending();
}

void NotifyPending() {
    std::lock_guard lock(HookMutex());
    if (Hook()) Hook()->fn();
}

}  // namespace svcpp::core::clients
