// Logger: routes the core's log lines to the host's log callbacks, through the client's callback queue.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "generated/callbacks.hpp"
#include "runtime/callback_queue.hpp"

namespace svcpp::core {

class Logger {
public:
    explicit Logger(CallbackQueue &queue) : queue_(queue) {}

    /** Registers a callback for lines at or above min; returns its token (>= 1). Takes cb only on success. */
    uint64_t Add(LoggingSeverity min, ClientLogCallback &&cb, uint64_t token);
    /** Ends a registration; false when the token is unknown. The callback is released by the caller's thread. */
    bool Remove(uint64_t token);
    /** Ends every registration (Drop, ResetCallbacks). */
    void Clear();

    /** Queues `message` for every registration whose minimum admits `severity`. Callable from any thread. */
    void Log(LoggingSeverity severity, std::string message);

private:
    struct Entry {
        LoggingSeverity min;
        SharedClientLogCallback cb;
    };
    CallbackQueue &queue_;
    std::mutex mutex_;
    std::map<uint64_t, Entry> entries_;
};

}  // namespace svcpp::core
