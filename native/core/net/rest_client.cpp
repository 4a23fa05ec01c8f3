// RestClient: the platform's rate limits (platform/PROTOCOL.md §2) on top of HttpClient. Requests wait in
// queues — one per bucket, or per route until the server has named the route's bucket — and each queue sends
// one request at a time, so a bucket's Remaining/Reset-After are always fresh when its next request goes out.
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <nlohmann/json.hpp>

#include "net/http.hpp"
#include "net/json_text.hpp"

namespace svcpp::core::net {

namespace asio = boost::asio;

namespace {

using Clock = std::chrono::steady_clock;

struct Pending {
    HttpRequest request;
    HttpDone done;
    std::string route;
};

struct Queue {
    explicit Queue(asio::io_context &io) : timer(io) {}

    std::deque<Pending> waiting;
    std::optional<Pending> inFlight;
    Clock::time_point pausedUntil;  // by a 429 that named no global limit
    asio::steady_timer timer;       // armed while the front request waits
    bool timerArmed = false;
};

struct Bucket {
    std::optional<int64_t> remaining;
    Clock::time_point resetAt;
};

/** What a 429 asks for: how long to wait (unknown when it says nothing usable) and whether it is global. */
struct RetryAdvice {
    std::optional<double> seconds;
    bool global = false;
};

HttpResponse NetworkError(std::string description) {
    HttpResponse response;
    response.networkError = std::move(description);
    return response;
}

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

Clock::duration Seconds(double seconds) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

RetryAdvice ReadRetryAdvice(const HttpResponse &response) {
    RetryAdvice advice;
    const auto body = net::ParseJson(response.body);
    if (body.is_object()) {
        if (auto it = body.find("retry_after"); it != body.end() && it->is_number()) {
            advice.seconds = std::max(0.0, it->get<double>());
        }
        if (auto it = body.find("global"); it != body.end() && it->is_boolean()) advice.global = it->get<bool>();
    }
    if (!advice.seconds) advice.seconds = ParseSeconds(response.Header("retry-after"));
    if (response.Header("x-ratelimit-global") == "true") advice.global = true;
    return advice;
}

std::string RouteOf(const HttpRequest &request) {
    if (!request.route.empty()) return request.route;
    const auto url = Url::Parse(request.url);
    return request.method + " " + (url ? url->target.substr(0, url->target.find('?')) : request.url);
}

}  // namespace

struct RestClient::Impl : std::enable_shared_from_this<RestClient::Impl> {
    Impl(asio::io_context &io, HttpClient &http, LogFn log) : io(io), http(http), log(std::move(log)) {}

    void Enqueue(HttpRequest request, HttpDone done) {
        if (shutDown) return done(NetworkError("shut down"));
        std::string route = RouteOf(request);
        const std::string key = QueueKeyOf(route);
        QueueAt(key).waiting.push_back({std::move(request), std::move(done), std::move(route)});
        Pump(key);
    }

    void Shutdown() {
        shutDown = true;
        std::vector<HttpDone> pending;
        for (auto &[key, queue] : queues) {
            queue->timer.cancel();
            if (queue->inFlight) pending.push_back(std::move(queue->inFlight->done));
            queue->inFlight.reset();
            for (auto &request : queue->waiting) pending.push_back(std::move(request.done));
            queue->waiting.clear();
        }
        for (auto &done : pending) done(NetworkError("shut down"));
    }

    std::string QueueKeyOf(const std::string &route) const {
        auto it = bucketOfRoute.find(route);
        return it == bucketOfRoute.end() ? "route " + route : "bucket " + it->second;
    }

    Queue &QueueAt(const std::string &key) {
        auto &queue = queues[key];
        if (!queue) queue = std::make_unique<Queue>(io);
        return *queue;
    }

    Bucket *BucketOf(const std::string &route) {
        auto it = bucketOfRoute.find(route);
        return it == bucketOfRoute.end() ? nullptr : &buckets[it->second];
    }

    /** Sends the front request of the queue, or arms its timer when a limit says it must wait. */
    void Pump(const std::string &key) {
        Queue &queue = QueueAt(key);
        if (shutDown || queue.inFlight || queue.timerArmed || queue.waiting.empty()) return;
        const std::string &route = queue.waiting.front().route;
        Clock::time_point readyAt = std::max(globalPausedUntil, queue.pausedUntil);
        if (const Bucket *bucket = BucketOf(route); bucket && bucket->remaining == 0) {
            readyAt = std::max(readyAt, bucket->resetAt);
        }
        if (readyAt > Clock::now()) return WaitUntil(key, queue, readyAt, route);

        queue.inFlight = std::move(queue.waiting.front());
        queue.waiting.pop_front();
        // Counted here too, so another route sharing the bucket sees it before this response arrives.
        if (Bucket *bucket = BucketOf(queue.inFlight->route); bucket && bucket->remaining > 0) --*bucket->remaining;
        http.Send(queue.inFlight->request, [weak = weak_from_this(), key](HttpResponse response) {
            if (auto self = weak.lock()) self->OnResponse(key, std::move(response));
        });
    }

    void WaitUntil(const std::string &key, Queue &queue, Clock::time_point until, const std::string &route) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.3f",
                      std::chrono::duration<double>(until - Clock::now()).count());
        if (log) log("rate limit: " + route + " waits " + seconds + " s");
        queue.timerArmed = true;
        queue.timer.expires_at(until);
        queue.timer.async_wait([weak = weak_from_this(), key](boost::system::error_code ec) {
            auto self = weak.lock();
            if (!self) return;
            self->QueueAt(key).timerArmed = false;
            if (!ec) self->Pump(key);
        });
    }

    void OnResponse(const std::string &key, HttpResponse response) {
        if (shutDown) return;  // Shutdown has completed the request already
        Queue &queue = QueueAt(key);
        Pending request = std::move(*queue.inFlight);
        queue.inFlight.reset();
        Learn(request.route, response);
        const std::string nextKey = QueueKeyOf(request.route);

        if (response.status == 429) {
            const RetryAdvice advice = ReadRetryAdvice(response);
            if (advice.seconds && *advice.seconds <= kMaxAutomaticRetryAfterSeconds) {
                const auto until = Clock::now() + Seconds(*advice.seconds);
                Queue &retryQueue = QueueAt(nextKey);
                auto &pausedUntil = advice.global ? globalPausedUntil : retryQueue.pausedUntil;
                pausedUntil = std::max(pausedUntil, until);
                retryQueue.waiting.push_front(std::move(request));
                Pump(nextKey);
                Pump(key);
                return;
            }
        }
        Pump(key);
        Pump(nextKey);
        request.done(std::move(response));
    }

    /** Takes the route's bucket and its counters from the response; the route's waiting requests follow it. */
    void Learn(const std::string &route, const HttpResponse &response) {
        const std::string id = response.Header("x-ratelimit-bucket");
        if (id.empty()) return;
        const std::string oldKey = QueueKeyOf(route);
        bucketOfRoute[route] = id;
        const std::string newKey = QueueKeyOf(route);
        if (newKey != oldKey) MoveWaiting(route, QueueAt(oldKey), QueueAt(newKey));

        Bucket &bucket = buckets[id];
        if (auto remaining = ParseCount(response.Header("x-ratelimit-remaining"))) bucket.remaining = remaining;
        if (auto resetAfter = ParseSeconds(response.Header("x-ratelimit-reset-after"))) {
            bucket.resetAt = Clock::now() + Seconds(*resetAfter);
        }
    }

    static void MoveWaiting(const std::string &route, Queue &from, Queue &to) {
        std::deque<Pending> stay;
        for (auto &request : from.waiting) {
            (request.route == route ? to.waiting : stay).push_back(std::move(request));
        }
        from.waiting = std::move(stay);
    }

    asio::io_context &io;
    HttpClient &http;
    const LogFn log;
    std::map<std::string, std::string> bucketOfRoute;
    std::map<std::string, Bucket> buckets;
    std::map<std::string, std::unique_ptr<Queue>> queues;  // "bucket <id>" or "route <route>"
    Clock::time_point globalPausedUntil;
    bool shutDown = false;
};

RestClient::RestClient(asio::io_context &io, HttpClient &http, LogFn log)
    : impl_(std::make_shared<Impl>(io, http, std::move(log))) {}

RestClient::~RestClient() { impl_->Shutdown(); }

void RestClient::Send(HttpRequest request, HttpDone done) {
    asio::post(impl_->io, [impl = impl_, request = std::move(request), done = std::move(done)]() mutable {
        impl->Enqueue(std::move(request), std::move(done));
    });
}

void RestClient::Shutdown() { impl_->Shutdown(); }

}  // namespace svcpp::core::net
