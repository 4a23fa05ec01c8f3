// IoThread: a client's place on an I/O thread (an Asio io_context on a std::thread named svcpp-io). HTTP,
// WebSockets, the gateways and timers run there.
//
// Placement: a client shares one of the process's pool threads (net/io_pool.hpp: at most min(cores, 4) of them, a
// new client goes to the one with the fewest clients), unless it asks for a thread of its own (`dedicated`: a client
// created with a CPU affinity mask, which pins every thread it owns). Either way all of one client's handlers run on
// one thread, in order, never two at once: the core relies on that and uses no strands.
//
// Lifetime without stopping a shared loop: every I/O object and post of the client carries Executor(), a
// ClientExecutor (net/client_executor.hpp) that runs a handler only while the client's gate is open. Stop() closes
// the gate ON the I/O thread (so no handler of this client is running), runs the client's last job there (destroying
// its sockets and timers on the thread that owns them), and waits for it; handlers of the client still queued
// afterwards are destroyed unrun when they come up. Then the client leaves its thread, which stops and is joined
// when no other client is on it (native/SEMANTICS.md "Threads").
//
// Asio stays behind this header (pimpl, forward declarations) so only the .cpp files that own I/O objects pay for it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace svcpp::core {
class SdkThreads;
}

namespace svcpp::core::net {

class ClientExecutor;

class IoThread {
  public:
    /** A thread of its own, pinned to cpuAffinityMask (bit n = CPU n) when given. */
    explicit IoThread(std::optional<uint64_t> cpuAffinityMask);
    /**
     * The client's I/O thread: a thread of its own when `dedicated`, else a place on the shared pool. The thread
     * enters `threads` as this client's Client thread (name, pinning, SetThreadPriority).
     */
    IoThread(std::shared_ptr<SdkThreads> threads, bool dedicated);
    ~IoThread();  // Stop()
    IoThread(const IoThread &) = delete;
    IoThread &operator=(const IoThread &) = delete;

    /** Runs fn on the I/O thread, unless the client has stopped by then (fn is then destroyed there, unrun). */
    void Post(std::function<void()> fn);
    /**
     * Closes the gate on the I/O thread, runs lastOnIo there, waits for both, then leaves the thread (stopping
     * and joining it when this was its last client). Call it from any thread but the I/O thread itself.
     */
    void Stop(std::function<void()> lastOnIo = {});
    bool RunningInThisThread() const;
    /** The executor of this client's sockets, timers and posts, for the translation units that own them. */
    const ClientExecutor &Executor() const;

    /** Shared pool threads running now in this process (tests: none once every client is gone). */
    static size_t SharedThreadsRunning();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace svcpp::core::net
