// Logger: routes the core's log lines to the host's log callbacks, through the client's callback queue.
#pragma once
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "generated/callbacks.hpp"
#include "log/redactor.hpp"
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

    /**
     * Redacts `message` (see Redactor), writes it to the log file when one is open, and queues it for every
     * registration whose minimum admits `severity`. Callable from any thread.
     */
    void Log(LoggingSeverity severity, std::string message);

    /** Registers a secret that must never appear in a log line. */
    void AddSecret(std::string_view secret) { redactor_.Add(secret); }

    /**
     * SetLogDir: writes lines at or above min to <dir>/svcpp.log, truncated now. None (or an empty dir) closes
     * the file. False, with nothing changed, when the file cannot be opened.
     */
    bool SetFile(const std::string &dir, LoggingSeverity min, const char *fileName = "svcpp.log");
    ~Logger();

  private:
    struct Entry {
        LoggingSeverity min;
        SharedClientLogCallback cb;
    };
    void WriteFile(LoggingSeverity severity, const std::string &message);

    CallbackQueue &queue_;
    Redactor redactor_;
    std::mutex mutex_;
    std::map<uint64_t, Entry> entries_;

    std::mutex fileMutex_;
    std::FILE *file_ = nullptr;
    LoggingSeverity fileMin_ = LoggingSeverity::None;
};

}  // namespace svcpp::core
