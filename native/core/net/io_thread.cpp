#include "net/io_thread.hpp"

#include <pthread.h>
#include <sched.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <thread>

namespace svcpp::core::net {

struct IoThread::Impl {
    boost::asio::io_context io{1};
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work = boost::asio::make_work_guard(io);
    std::thread thread;
};

namespace {
void PinCurrentThread(uint64_t mask) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu = 0; cpu < 64; ++cpu) {
        if (mask & (uint64_t{1} << cpu)) CPU_SET(cpu, &set);
    }
    // A mask naming no CPU of this machine is ignored rather than failing the client.
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}
}  // namespace

IoThread::IoThread(std::optional<uint64_t> cpuAffinityMask) : impl_(std::make_unique<Impl>()) {
    impl_->thread = std::thread([impl = impl_.get(), cpuAffinityMask] {
        pthread_setname_np(pthread_self(), "svcpp-io");
        if (cpuAffinityMask) PinCurrentThread(*cpuAffinityMask);
        impl->io.run();
    });
}

IoThread::~IoThread() { Stop(); }

void IoThread::Post(std::function<void()> fn) { boost::asio::post(impl_->io, std::move(fn)); }

void IoThread::Stop() {
    if (!impl_->thread.joinable()) return;
    impl_->work.reset();
    impl_->io.stop();
    impl_->thread.join();
}

boost::asio::io_context &IoThread::Context() { return impl_->io; }

bool IoThread::RunningInThisThread() const { return impl_->io.get_executor().running_in_this_thread(); }

}  // namespace svcpp::core::net
