// ClientExecutor: the executor of one client's I/O objects on a shared I/O thread (net/io_thread.hpp).
//
// Several clients share one io_context (one pool thread), so a client can no longer end its handlers by stopping
// the loop. Instead every socket, timer, resolver, TLS/WebSocket stream and post of a client carries this executor:
// it hands each handler to the thread's io_context wrapped in a check of the client's gate. While the gate is open
// the handler runs as it would on the plain io_context executor (inline when Asio asks for blocking.possibly on the
// thread itself, queued otherwise); once the client's Stop has closed the gate — on the I/O thread, so no handler of
// that client is running then — every handler of that client that comes up is destroyed without running, on the
// I/O thread, whatever it captured. Asio's `any_io_executor` (the default executor of every Asio and Beast type the
// core uses) holds this executor like the io_context's own; properties (blocking, outstanding work, allocator,
// relationship) are forwarded to the io_context executor inside, as asio::strand does.
//
// Only translation units that already include Asio include this header; the rest name `class ClientExecutor;`.
#pragma once
#include <atomic>
#include <memory>
#include <type_traits>
#include <utility>

#include <boost/asio/execution.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/query.hpp>
#include <boost/asio/require.hpp>

namespace svcpp::core::net {

/** Whether one client's handlers may still run. Closed once, on the client's I/O thread (IoThread::Stop). */
struct ClientGate {
    std::atomic<bool> open{true};
};

template <typename Inner>
class BasicGatedExecutor {
  public:
    BasicGatedExecutor(Inner inner, std::shared_ptr<ClientGate> gate) noexcept
        : inner_(std::move(inner)), gate_(std::move(gate)) {}

    template <typename Property>
    auto query(const Property &property) const noexcept(boost::asio::is_nothrow_query<const Inner &, Property>::value)
        -> std::enable_if_t<boost::asio::can_query<const Inner &, Property>::value,
                            typename boost::asio::query_result<const Inner &, Property>::type> {
        return boost::asio::query(inner_, property);
    }

    template <typename Property>
    auto require(const Property &property) const -> std::enable_if_t<
        boost::asio::can_require<const Inner &, Property>::value,
        BasicGatedExecutor<std::decay_t<typename boost::asio::require_result<const Inner &, Property>::type>>> {
        return {boost::asio::require(inner_, property), gate_};
    }

    template <typename Property>
    auto prefer(const Property &property) const -> std::enable_if_t<
        boost::asio::can_prefer<const Inner &, Property>::value,
        BasicGatedExecutor<std::decay_t<typename boost::asio::prefer_result<const Inner &, Property>::type>>> {
        return {boost::asio::prefer(inner_, property), gate_};
    }

    template <typename Function>
    void execute(Function &&function) const {
        inner_.execute(Gated<std::decay_t<Function>>{gate_, std::forward<Function>(function)});
    }

    const Inner &Underlying() const noexcept { return inner_; }
    const std::shared_ptr<ClientGate> &Gate() const noexcept { return gate_; }
    bool running_in_this_thread() const noexcept { return inner_.running_in_this_thread(); }

    friend bool operator==(const BasicGatedExecutor &a, const BasicGatedExecutor &b) noexcept {
        return a.inner_ == b.inner_ && a.gate_ == b.gate_;
    }
    friend bool operator!=(const BasicGatedExecutor &a, const BasicGatedExecutor &b) noexcept { return !(a == b); }

  private:
    template <typename Function>
    struct Gated {
        std::shared_ptr<ClientGate> gate;
        Function function;
        void operator()() {
            // Closed: `function` (and whatever it owns) is destroyed with this wrapper, unrun, on the I/O thread.
            if (gate->open.load(std::memory_order_acquire)) std::move(function)();
        }
    };

    Inner inner_;
    std::shared_ptr<ClientGate> gate_;
};

/** The executor a client's I/O objects are made with; a class (not an alias) so headers can forward-declare it. */
class ClientExecutor : public BasicGatedExecutor<boost::asio::io_context::executor_type> {
  public:
    using BasicGatedExecutor::BasicGatedExecutor;
    /** A gate of its own on a loop the caller runs (tests that drive an io_context by hand). */
    explicit ClientExecutor(boost::asio::io_context &io)
        : BasicGatedExecutor(io.get_executor(), std::make_shared<ClientGate>()) {}
};

}  // namespace svcpp::core::net
