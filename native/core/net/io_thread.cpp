#include "net/io_thread.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <thread>

#include "threads/sdk_threads.hpp"

namespace svcpp::core::net {

struct IoThread::Impl {
    boost::asio::io_context io{1};
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work = boost::asio::make_work_guard(io);
    std::thread thread;
};

IoThread::IoThread(std::optional<uint64_t> cpuAffinityMask)
    : IoThread(std::make_shared<SdkThreads>(cpuAffinityMask, SdkThreads::RefusalLog{})) {}

IoThread::IoThread(std::shared_ptr<SdkThreads> threads) : impl_(std::make_unique<Impl>()) {
    impl_->thread = std::thread([impl = impl_.get(), threads = std::move(threads)] {
        auto membership = threads->Enter(ClientThread::Client, "svcpp-io");
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
