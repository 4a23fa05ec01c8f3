// IoThread: the client's I/O thread, an Asio io_context running on its own std::thread.
// HTTP, WebSockets and timers run here (later issues). Asio stays behind this pimpl so only
// io_thread.cpp pays for its headers.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace boost::asio {
class io_context;
}

namespace svcpp::core {
class SdkThreads;
}

namespace svcpp::core::net {

class IoThread {
public:
    /** Starts the thread; pins it to cpuAffinityMask (bit n = CPU n) when given. */
    explicit IoThread(std::optional<uint64_t> cpuAffinityMask);
    /** Starts the thread as its client's Client thread (SdkThreads: name, pinning, priority). */
    explicit IoThread(std::shared_ptr<SdkThreads> threads);
    ~IoThread();  // Stop()
    IoThread(const IoThread &) = delete;
    IoThread &operator=(const IoThread &) = delete;

    /** Runs fn on the I/O thread. */
    void Post(std::function<void()> fn);
    /** Stops the loop and joins the thread; handlers not yet run are destroyed on the calling thread. */
    void Stop();
    bool RunningInThisThread() const;
    /** The loop itself, for the few translation units that own sockets and timers (net/, gateway/). */
    boost::asio::io_context &Context();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace svcpp::core::net
