// Client-side helpers for the network tests: the code under test runs on an IoThread of its own, and the
// test thread waits for its completions (bounded, so a broken client fails the test instead of hanging it).
#pragma once
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>

#include "net/http.hpp"
#include "net/client_executor.hpp"
#include "net/io_thread.hpp"

namespace svcpp::test {

inline constexpr auto kPatience = std::chrono::seconds(10);

/** Runs fn on the I/O thread and returns when it has run. */
template <class Fn>
void RunOnIo(core::net::IoThread &io, Fn fn) {
    std::promise<void> ran;
    io.Post([&] {
        fn();
        ran.set_value();
    });
    ran.get_future().wait();
}

/** A response promised by a `done` callback; the callback may outlive the waiting test. */
class PendingResponse {
  public:
    core::net::HttpDone Callback() {
        return [promise = promise_](core::net::HttpResponse response) { promise->set_value(std::move(response)); };
    }
    /** The response, or a failed test and an empty response when none came. */
    core::net::HttpResponse Get() {
        if (future_.wait_for(kPatience) != std::future_status::ready) {
            ADD_FAILURE() << "no response within " << kPatience.count() << " s";
            return {};
        }
        return future_.get();
    }

  private:
    std::shared_ptr<std::promise<core::net::HttpResponse>> promise_ =
        std::make_shared<std::promise<core::net::HttpResponse>>();
    std::future<core::net::HttpResponse> future_ = promise_->get_future();
};

template <class Client>
core::net::HttpResponse SendAndWait(Client &client, core::net::HttpRequest request) {
    PendingResponse response;
    client.Send(std::move(request), response.Callback());
    return response.Get();
}

inline core::net::HttpRequest Get(std::string url, std::string route = {}) {
    core::net::HttpRequest request;
    request.url = std::move(url);
    request.route = std::move(route);
    return request;
}

}  // namespace svcpp::test
