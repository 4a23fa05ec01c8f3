#include "net/io_thread.hpp"

#include <boost/asio/post.hpp>
#include <future>

#include "net/client_executor.hpp"
#include "net/io_pool.hpp"
#include "threads/sdk_threads.hpp"

namespace svcpp::core::net {

struct IoThread::Impl {
    // Exactly one of: a place on the shared pool, or a thread of this client's own.
    std::optional<IoPool::Place> shared;
    std::shared_ptr<LoopThread> own;
    // The loop, kept (stopped or not) until this IoThread goes: see Stop.
    std::shared_ptr<LoopThread> loop;
    boost::asio::io_context *io = nullptr;
    std::optional<ClientExecutor> executor;
    // This client's membership of the thread in its SdkThreads; made and ended on the I/O thread.
    std::optional<SdkThreads::Membership> membership;
    bool stopped = false;
};

IoThread::IoThread(std::optional<uint64_t> cpuAffinityMask)
    : IoThread(std::make_shared<SdkThreads>(cpuAffinityMask, SdkThreads::RefusalLog{}), true) {}

IoThread::IoThread(std::shared_ptr<SdkThreads> threads, bool dedicated) : impl_(std::make_unique<Impl>()) {
    if (dedicated) {
        impl_->own = std::make_shared<LoopThread>();
        impl_->loop = impl_->own;
    } else {
        impl_->shared = IoPool::Instance().Join();
        impl_->loop = impl_->shared->loop;
    }
    impl_->io = &impl_->loop->Context();
    impl_->executor.emplace(impl_->io->get_executor(), std::make_shared<ClientGate>());
    // The first job of this client on the thread, so it runs before any handler of the client: the thread takes the
    // client's name, pinning and Client-thread priority (on a shared thread, the last client to set one wins).
    Post([impl = impl_.get(), threads = std::move(threads)] {
        impl->membership.emplace(threads->Enter(ClientThread::Client, "svcpp-io"));
    });
}

IoThread::~IoThread() {
    Stop();
    // Handlers still queued on a loop that has stopped are destroyed with it, unrun, when the last IoThread of that
    // loop goes; a loop that still runs (other clients on it) discards this client's as they come up.
}

void IoThread::Post(std::function<void()> fn) { boost::asio::post(*impl_->executor, std::move(fn)); }

void IoThread::Stop(std::function<void()> lastOnIo) {
    if (impl_->stopped) return;
    impl_->stopped = true;
    auto last = [impl = impl_.get(), &lastOnIo] {
        impl->executor->Gate()->open.store(false, std::memory_order_release);
        if (lastOnIo) lastOnIo();
        impl->membership.reset();
    };
    if (RunningInThisThread()) {
        last();
    } else {
        // Posted on the loop itself, not through the gate: it must run even though it closes the gate.
        auto done = std::make_shared<std::promise<void>>();  // shared: set_value may still run as the wait returns
        auto finished = done->get_future();
        boost::asio::post(*impl_->io, [&last, done] {
            try {
                last();
            } catch (...) {
                // lastOnIo failed half-way; the gate is closed, which is what the rest relies on.
            }
            done->set_value();
        });
        finished.wait();
    }
    // Leave the thread (it stops and is joined when this was its last client). The loop object itself stays until
    // this IoThread is destroyed: the client's remaining I/O objects (idle by now) are destroyed before it.
    const bool onLoop = RunningInThisThread();
    if (impl_->shared) {
        auto place = std::move(*impl_->shared);
        impl_->shared.reset();
        if (onLoop) {
            // Stopped from one of its own handlers: the thread cannot join itself; another thread lets it go.
            std::thread([place = std::move(place)]() mutable { IoPool::Instance().Leave(std::move(place)); }).detach();
        } else {
            IoPool::Instance().Leave(std::move(place));
        }
    } else if (impl_->own) {
        if (onLoop) {
            std::thread([own = impl_->own] { own->Stop(); }).detach();
        } else {
            impl_->own->Stop();
        }
    }
}

bool IoThread::RunningInThisThread() const { return impl_->executor->running_in_this_thread(); }

const ClientExecutor &IoThread::Executor() const { return *impl_->executor; }

size_t IoThread::SharedThreadsRunning() { return IoPool::Instance().RunningThreads(); }

}  // namespace svcpp::core::net
