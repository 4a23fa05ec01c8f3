#include "net/io_pool.hpp"

#include "threads/os_thread.hpp"

#include <algorithm>

namespace svcpp::core::net {

LoopThread::LoopThread() {
    thread_ = std::thread([this] {
        // The name `top -H` and debuggers show; a client's SdkThreads names it again (the same name) as it joins.
        os::NameCurrentThread("svcpp-io");
        io_.run();
    });
}

LoopThread::~LoopThread() { Stop(); }

void LoopThread::Stop() {
    if (!thread_.joinable()) return;
    work_.reset();
    io_.stop();
    thread_.join();
}

IoPool &IoPool::Instance() {
    static IoPool *pool = new IoPool();  // leaked on purpose: see the header
    return *pool;
}

IoPool::IoPool() {
    const unsigned cores = std::thread::hardware_concurrency();
    slots_.resize(std::clamp<size_t>(cores, 1, 4));
}

IoPool::Place IoPool::Join() {
    std::lock_guard lock(mutex_);
    auto fewest = std::min_element(slots_.begin(), slots_.end(),
                                   [](const Slot &a, const Slot &b) { return a.clients < b.clients; });
    if (!fewest->loop) fewest->loop = std::make_shared<LoopThread>();
    ++fewest->clients;
    return Place{static_cast<size_t>(fewest - slots_.begin()), fewest->loop};
}

void IoPool::Leave(Place place) {
    std::shared_ptr<LoopThread> last;
    {
        std::lock_guard lock(mutex_);
        Slot &slot = slots_.at(place.slot);
        if (--slot.clients == 0) last = std::move(slot.loop);  // a client joining from now on starts a new thread
    }
    place.loop.reset();
    if (last) last->Stop();  // outside the lock: joining waits for the loop's current handler
}

size_t IoPool::RunningThreads() const {
    std::lock_guard lock(mutex_);
    return static_cast<size_t>(
        std::count_if(slots_.begin(), slots_.end(), [](const Slot &slot) { return slot.loop != nullptr; }));
}

}  // namespace svcpp::core::net
