// The process's I/O threads (net/io_thread.hpp is the client's view of them; only io_thread.cpp includes this).
//   LoopThread  one io_context run by one std::thread named svcpp-io, kept running by a work guard until Stop;
//   IoPool      up to min(hardware_concurrency, 4) shared LoopThreads. A client joins the one with the fewest
//               clients (a slot without a thread gets one: one client → one thread) and stays there; the thread
//               stops when its last client leaves, so no I/O thread outlives the last client.
#pragma once
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

namespace svcpp::core::net {

class LoopThread {
  public:
    LoopThread();
    ~LoopThread();  // Stop()
    LoopThread(const LoopThread &) = delete;
    LoopThread &operator=(const LoopThread &) = delete;

    /** Stops the loop and joins the thread (not from the thread itself); handlers still queued are destroyed unrun
     *  with the io_context, on the calling thread, after the thread has ended. */
    void Stop();
    boost::asio::io_context &Context() { return io_; }

  private:
    // One thread runs this context: concurrency hint 1 (posts from other threads still lock).
    boost::asio::io_context io_{1};
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ = boost::asio::make_work_guard(io_);
    std::thread thread_;
};

class IoPool {
  public:
    /** The process's pool. Never destroyed (a client dropped during static teardown may still leave it). */
    static IoPool &Instance();

    struct Place {
        size_t slot;
        std::shared_ptr<LoopThread> loop;
    };
    /** A place on the thread with the fewest clients; starts that thread when it has none. */
    Place Join();
    /** Gives the place back; the last client of a thread stops and joins it (on the calling thread). The LoopThread
     *  object lives on while anyone holds it (a stopped loop: its queued handlers go with it). */
    void Leave(Place place);
    /** Threads running now (tests: zero once every client is gone). */
    size_t RunningThreads() const;

  private:
    IoPool();
    struct Slot {
        std::shared_ptr<LoopThread> loop;
        size_t clients = 0;
    };
    mutable std::mutex mutex_;
    std::vector<Slot> slots_;
};

}  // namespace svcpp::core::net
