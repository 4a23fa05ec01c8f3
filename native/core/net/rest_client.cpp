// RestClient: the platform's rate limits (platform/PROTOCOL.md §2) on top of HttpClient. Requests wait in
// queues — one per bucket, or per route until the server has named the route's bucket — and each queue sends
// one request at a time, so a bucket's Remaining/Reset-After are always fresh when its next request goes out.
// The rules (when a request may go out) are RateLimiter's; this file owns the queues, timers and retries.
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdio>
#include <deque>

#include "net/client_executor.hpp"
#include "net/http.hpp"
#include "net/rate_limiter.hpp"

namespace svcpp::core::net {

namespace asio = boost::asio;

namespace {

using Clock = RateLimiter::Clock;

struct Pending {
    HttpRequest request;
    HttpDone done;
    std::string route;
};

struct Queue {
    explicit Queue(const net::ClientExecutor &io) : timer(io) {}

    std::deque<Pending> waiting;
    std::optional<Pending> inFlight;
    asio::steady_timer timer;  // armed while the front request waits
    bool timerArmed = false;
};

HttpResponse NetworkError(std::string description) {
    HttpResponse response;
    response.networkError = std::move(description);
    return response;
}

std::string RouteOf(const HttpRequest &request) {
    if (!request.route.empty()) return request.route;
    const auto url = Url::Parse(request.url);
    return request.method + " " + (url ? url->target.substr(0, url->target.find('?')) : request.url);
}

}  // namespace

struct RestClient::Impl : std::enable_shared_from_this<RestClient::Impl> {
    Impl(const net::ClientExecutor &io, HttpClient &http, LogFn log) : io(io), http(http), log(std::move(log)) {}

    void Enqueue(HttpRequest request, HttpDone done) {
        if (shutDown) return done(NetworkError("shut down"));
        std::string route = RouteOf(request);
        const std::string key = limits.QueueKeyOf(route);
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

    Queue &QueueAt(const std::string &key) {
        auto &queue = queues[key];
        if (!queue) queue = std::make_unique<Queue>(io);
        return *queue;
    }

    /** Dispatches the front request of the queue, or arms its timer when a limit says it must wait. */
    void Pump(const std::string &key) {
        Queue &queue = QueueAt(key);
        if (shutDown || queue.inFlight || queue.timerArmed || queue.waiting.empty()) return;
        const std::string &route = queue.waiting.front().route;
        if (const auto readyAt = limits.ReadyAt(route); readyAt > Clock::now())
            return WaitUntil(key, queue, readyAt, route);

        queue.inFlight = std::move(queue.waiting.front());
        queue.waiting.pop_front();
        limits.CountDispatched(queue.inFlight->route);
        HttpRequest request = queue.inFlight->request;
        // Asked by the HTTP layer right before it writes (after a connect, on a later turn of the I/O loop): a
        // wait told meanwhile — a global 429 of another queue, say — holds the request instead of sending it.
        // Its verbose line, in the I/O thread's order with the "told to wait" lines, lets a test (bench/soak-429.ts)
        // tell a request written before a wait was told from one written into it.
        request.clearToWrite = [weak = weak_from_this(), route = queue.inFlight->route] {
            auto self = weak.lock();
            if (!self) return true;
            if (!self->limits.ClearToWrite(route, Clock::now())) return false;
            if (self->log) self->log("rate limit: " + route + " written");
            return true;
        };
        http.Send(std::move(request), [weak = weak_from_this(), key](HttpResponse response) {
            if (auto self = weak.lock()) self->OnResponse(key, std::move(response));
        });
    }

    void WaitUntil(const std::string &key, Queue &queue, Clock::time_point until, const std::string &route) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.3f", std::chrono::duration<double>(until - Clock::now()).count());
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
        if (response.held) {
            // Not sent: it goes back to the front of its queue (its bucket's by now, perhaps) and waits there.
            const std::string nextKey = limits.QueueKeyOf(request.route);
            QueueAt(nextKey).waiting.push_front(std::move(request));
            Pump(nextKey);
            return Pump(key);
        }
        const std::string oldKey = limits.QueueKeyOf(request.route);
        const RateLimiter::Learned learned = limits.Learn(request.route, response, Clock::now());
        if (learned.toldWait && log) log("rate limit: " + request.route + " told to wait");
        const std::string nextKey = limits.QueueKeyOf(request.route);
        // The route's bucket is known now: its waiting requests follow it.
        if (nextKey != oldKey) MoveWaiting(request.route, QueueAt(oldKey), QueueAt(nextKey));

        if (learned.next == RateLimiter::Next::Retry) {
            QueueAt(nextKey).waiting.push_front(std::move(request));
            Pump(nextKey);
            return Pump(key);
        }
        Pump(key);
        Pump(nextKey);
        request.done(std::move(response));
    }

    static void MoveWaiting(const std::string &route, Queue &from, Queue &to) {
        std::deque<Pending> stay;
        for (auto &request : from.waiting) {
            (request.route == route ? to.waiting : stay).push_back(std::move(request));
        }
        from.waiting = std::move(stay);
    }

    net::ClientExecutor io;
    HttpClient &http;
    const LogFn log;
    RateLimiter limits;
    std::map<std::string, std::unique_ptr<Queue>> queues;  // "bucket <id>" or "route <route>"
    bool shutDown = false;
};

RestClient::RestClient(const net::ClientExecutor &io, HttpClient &http, LogFn log)
    : impl_(std::make_shared<Impl>(io, http, std::move(log))) {}

RestClient::~RestClient() { impl_->Shutdown(); }

void RestClient::Send(HttpRequest request, HttpDone done) {
    asio::post(impl_->io, [impl = impl_, request = std::move(request), done = std::move(done)]() mutable {
        impl->Enqueue(std::move(request), std::move(done));
    });
}

void RestClient::Shutdown() { impl_->Shutdown(); }

}  // namespace svcpp::core::net
