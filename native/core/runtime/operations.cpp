#include "runtime/operations.hpp"

namespace svcpp::core {

ClientResult FailureResult(ErrorType type, std::string message) {
    ClientResult r;
    r.type = type;
    r.error = std::move(message);
    return r;
}

uint64_t Operations::Add(std::shared_ptr<OperationBase> op) {
    std::lock_guard lock(mutex_);
    uint64_t id = nextId_++;
    inflight_.emplace(id, std::move(op));
    return id;
}

void Operations::Remove(uint64_t id) {
    std::shared_ptr<OperationBase> released;  // the last reference may go here; it holds no host data any more
    std::lock_guard lock(mutex_);
    auto it = inflight_.find(id);
    if (it == inflight_.end()) return;
    released = std::move(it->second);
    inflight_.erase(it);
}

void Operations::FailAll(const ClientResult &result) {
    std::map<uint64_t, std::shared_ptr<OperationBase>> taken;
    {
        std::lock_guard lock(mutex_);
        taken.swap(inflight_);
    }
    // Host callbacks run outside the lock: they may start new operations.
    for (auto &[id, op] : taken) op->FailNow(result);
}

}  // namespace svcpp::core
