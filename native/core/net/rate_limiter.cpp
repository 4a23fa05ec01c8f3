// RateLimiter: the rules (rate_limiter.hpp); the headers are the platform's (platform/PROTOCOL.md §2).
#include "net/rate_limiter.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "net/json_text.hpp"

namespace svcpp::core::net {

namespace {

/** What a 429 asks for: how long to wait (unknown when it says nothing usable) and whether it is global. */
struct RetryAdvice {
    std::optional<double> seconds;
    bool global = false;
};

std::optional<double> ParseSeconds(const std::string &text) {
    double value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(value) ||
        value < 0) {
        return std::nullopt;
    }
    return value;
}

std::optional<int64_t> ParseCount(const std::string &text) {
    int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
    return value;
}

RateLimiter::Clock::duration Seconds(double seconds) {
    return std::chrono::duration_cast<RateLimiter::Clock::duration>(std::chrono::duration<double>(seconds));
}

RetryAdvice ReadRetryAdvice(const HttpResponse &response) {
    RetryAdvice advice;
    const auto body = net::ParseJson(response.body);
    if (body.is_object()) {
        if (auto it = body.find("retry_after"); it != body.end() && it->is_number()) {
            const double seconds = it->get<double>();
            if (std::isfinite(seconds)) advice.seconds = std::max(0.0, seconds);
        }
        if (auto it = body.find("global"); it != body.end() && it->is_boolean()) advice.global = it->get<bool>();
    }
    if (!advice.seconds) advice.seconds = ParseSeconds(response.Header("retry-after"));
    if (response.Header("x-ratelimit-global") == "true") advice.global = true;
    return advice;
}

}  // namespace

std::string RateLimiter::QueueKeyOf(const std::string &route) const {
    auto it = bucketOfRoute_.find(route);
    return it == bucketOfRoute_.end() ? "route " + route : "bucket " + it->second;
}

RateLimiter::TimePoint RateLimiter::ToldWaitEnd(const std::string &route) const {
    TimePoint end = globalWaitUntil_;
    if (auto it = toldWaitUntil_.find(QueueKeyOf(route)); it != toldWaitUntil_.end()) end = std::max(end, it->second);
    return end;
}

RateLimiter::TimePoint RateLimiter::ReadyAt(const std::string &route) const {
    TimePoint ready = ToldWaitEnd(route);
    if (auto it = bucketOfRoute_.find(route); it != bucketOfRoute_.end()) {
        const Bucket &bucket = buckets_.at(it->second);
        if (bucket.remaining == 0) ready = std::max(ready, bucket.resetAt);
    }
    return ready;
}

bool RateLimiter::ClearToWrite(const std::string &route, TimePoint now) const { return ToldWaitEnd(route) <= now; }

void RateLimiter::CountDispatched(const std::string &route) {
    auto it = bucketOfRoute_.find(route);
    if (it == bucketOfRoute_.end()) return;
    // Counted at dispatch, so the bucket's next request waits for the reset instead of learning of it by a 429.
    Bucket &bucket = buckets_[it->second];
    if (bucket.remaining > 0) --*bucket.remaining;
}

void RateLimiter::Wait(const std::string &queueKey, TimePoint until) {
    auto &end = toldWaitUntil_[queueKey];
    end = std::max(end, until);  // a shorter wait told later (an older answer) does not shorten a running one
}

RateLimiter::Learned RateLimiter::Learn(const std::string &route, const HttpResponse &response, TimePoint now) {
    Learned learned;
    if (const std::string id = response.Header("x-ratelimit-bucket"); !id.empty()) {
        const std::string routeKey = QueueKeyOf(route);
        bucketOfRoute_[route] = id;
        // A wait told to the route before its bucket was known is its bucket's from now on.
        if (auto it = toldWaitUntil_.find(routeKey); routeKey != QueueKeyOf(route) && it != toldWaitUntil_.end()) {
            const TimePoint until = it->second;
            toldWaitUntil_.erase(it);
            Wait(QueueKeyOf(route), until);
        }
        Bucket &bucket = buckets_[id];
        if (auto remaining = ParseCount(response.Header("x-ratelimit-remaining"))) bucket.remaining = remaining;
        if (auto resetAfter = ParseSeconds(response.Header("x-ratelimit-reset-after"))) {
            bucket.resetAt = now + Seconds(*resetAfter);
            // Exhausted: a told wait. Not undone by an answer to an earlier request that arrives after it.
            if (bucket.remaining == 0) {
                Wait(QueueKeyOf(route), bucket.resetAt);
                learned.toldWait = true;
            }
        }
    }
    if (response.status != 429) return learned;

    const RetryAdvice advice = ReadRetryAdvice(response);
    if (!advice.seconds) return learned;  // no wait told: nothing to honour, nothing to retry on
    learned.toldWait = true;
    const TimePoint until = now + Seconds(*advice.seconds);
    if (advice.global) {
        globalWaitUntil_ = std::max(globalWaitUntil_, until);
    } else {
        Wait(QueueKeyOf(route), until);
    }
    if (*advice.seconds <= kMaxAutomaticRetryAfterSeconds) learned.next = Next::Retry;
    return learned;
}

}  // namespace svcpp::core::net
