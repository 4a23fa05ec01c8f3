#include "log/logger.hpp"

namespace svcpp::core {

namespace {
bool Admits(LoggingSeverity min, LoggingSeverity severity) {
    return min != LoggingSeverity::None && static_cast<int32_t>(severity) >= static_cast<int32_t>(min);
}
}  // namespace

uint64_t Logger::Add(LoggingSeverity min, ClientLogCallback &&cb, uint64_t token) {
    auto shared = Share(std::move(cb));
    std::lock_guard lock(mutex_);
    entries_.emplace(token, Entry{min, std::move(shared)});
    return token;
}

bool Logger::Remove(uint64_t token) {
    SharedClientLogCallback released;  // destroyed after the lock: userDataFree never runs under it
    std::lock_guard lock(mutex_);
    auto it = entries_.find(token);
    if (it == entries_.end()) return false;
    released = std::move(it->second.cb);
    entries_.erase(it);
    return true;
}

void Logger::Clear() {
    std::map<uint64_t, Entry> released;
    {
        std::lock_guard lock(mutex_);
        released.swap(entries_);
    }
}

void Logger::Log(LoggingSeverity severity, std::string message) {
    // Registrations are looked up again at delivery, so a line never reaches a removed callback; a
    // registration added after the line was logged does not receive it.
    std::vector<std::weak_ptr<ClientLogCallback>> targets;
    {
        std::lock_guard lock(mutex_);
        for (auto &[token, entry] : entries_) {
            if (Admits(entry.min, severity)) targets.push_back(entry.cb);
        }
    }
    if (targets.empty()) return;
    queue_.Post(Job{[targets = std::move(targets), message = std::move(message), severity](JobMode mode) {
        if (mode != JobMode::Deliver) return;
        for (const auto &weak : targets) {
            if (auto cb = weak.lock()) cb->fn(message, severity);
        }
    }});
}

}  // namespace svcpp::core
