// RateLimiter: what the client knows of the platform's rate limits (native/SEMANTICS.md "Rate limits"), as pure
// rules with the time passed in, so they are tested with a fake clock. RestClient (rest_client.cpp) owns the queues
// and timers and asks it when a request may go out.
//
// A *told wait* is a wait an answer of the platform announced: a 429 (global, or for the request's bucket) until its
// retry_after has run out, or an answer saying the bucket is exhausted (X-RateLimit-Remaining 0) until its
// Reset-After. No request is written while a told wait runs for it — including a request dispatched to the HTTP
// layer before the wait was told (HttpRequest::clearToWrite asks ClearToWrite right before the bytes go out).
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "net/http.hpp"

namespace svcpp::core::net {

class RateLimiter {
  public:
    using Clock = std::chrono::steady_clock;
    using TimePoint = Clock::time_point;

    /** The queue a route's requests wait in: "bucket <id>" once an answer named the route's bucket, else "route
     * <route>". */
    std::string QueueKeyOf(const std::string &route) const;

    /**
     * The earliest time the route's next request may be dispatched: the told waits (global, its bucket's), and
     * the bucket's own count — when the requests dispatched since its last answer used up Remaining, its reset.
     */
    TimePoint ReadyAt(const std::string &route) const;

    /**
     * Whether a request of the route, dispatched before, may be written now: false while a told wait runs for it.
     * Unlike ReadyAt it ignores the client's own count, which already includes this request.
     */
    bool ClearToWrite(const std::string &route, TimePoint now) const;

    /** A request of the route was dispatched: counted against its bucket before its answer comes. */
    void CountDispatched(const std::string &route);

    /** What Learn tells the caller to do with the request that got the answer. */
    enum class Next { Complete, Retry };
    struct Learned {
        Next next = Next::Complete;
        bool toldWait = false;  // the answer told a wait: a 429 with a usable retry_after, or Remaining 0
    };

    /**
     * Takes the bucket, counters and waits an answer carries (received at `now`). A 429 records its wait whatever
     * its length — so no other request is written into it — and asks for a retry when the wait is known and at most
     * kMaxAutomaticRetryAfterSeconds; otherwise the request completes with the 429.
     */
    Learned Learn(const std::string &route, const HttpResponse &response, TimePoint now);

  private:
    struct Bucket {
        std::optional<int64_t> remaining;  // from the last answer, minus what was dispatched since
        TimePoint resetAt;
    };

    TimePoint ToldWaitEnd(const std::string &route) const;
    void Wait(const std::string &queueKey, TimePoint until);

    std::map<std::string, std::string> bucketOfRoute_;
    std::map<std::string, Bucket> buckets_;
    std::map<std::string, TimePoint> toldWaitUntil_;  // per queue key: a 429's wait, or an exhausted bucket's reset
    TimePoint globalWaitUntil_;
};

}  // namespace svcpp::core::net
