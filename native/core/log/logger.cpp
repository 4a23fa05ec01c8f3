#include "log/logger.hpp"

#include "files/utf8_file.hpp"

#include <chrono>
#include <ctime>

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

Logger::~Logger() {
    if (file_) std::fclose(file_);
}

bool Logger::SetFile(const std::string &dir, LoggingSeverity min, const char *fileName) {
    std::FILE *next = nullptr;
    if (!dir.empty() && min != LoggingSeverity::None) {
        next = files::OpenUtf8File(dir + "/" + fileName, "w");
        if (!next) return false;
    }
    std::lock_guard lock(fileMutex_);
    if (file_) std::fclose(file_);
    file_ = next;
    fileMin_ = next ? min : LoggingSeverity::None;
    return true;
}

void Logger::WriteFile(LoggingSeverity severity, const std::string &message) {
    std::lock_guard lock(fileMutex_);
    if (!file_ || !Admits(fileMin_, severity)) return;
    // UTC through C++20's calendar (gmtime_r is POSIX's, not Windows' C runtime's).
    const auto now = std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now());
    const auto today = std::chrono::floor<std::chrono::days>(now);
    const std::chrono::year_month_day date{today};
    const std::chrono::hh_mm_ss time{now - today};
    std::fprintf(file_, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ [%s] %s\n", static_cast<int>(date.year()),
                 static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                 static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                 static_cast<int>(time.seconds().count()), static_cast<int>(time.subseconds().count()),
                 ToString(severity), message.c_str());
    std::fflush(file_);  // a crash must not lose the lines that explain it
}

void Logger::Log(LoggingSeverity severity, std::string message) {
    message = redactor_.Apply(std::move(message));
    WriteFile(severity, message);
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
