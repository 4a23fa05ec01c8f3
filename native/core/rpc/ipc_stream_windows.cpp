#include "rpc/ipc_stream.hpp"

#include <windows.h>

#include <boost/asio/post.hpp>
#include <boost/asio/windows/stream_handle.hpp>
#include <boost/asio/write.hpp>

#include "files/utf16_windows.hpp"

namespace svcpp::core::rpc {

namespace {
namespace asio = boost::asio;

class NamedPipeStream final : public IpcStream {
  public:
    explicit NamedPipeStream(const net::ClientExecutor &io) : pipe_(io) {}

    void AsyncConnect(const std::string &path, ConnectHandler handler) override {
        // A client end of a named pipe opens at once or not at all (no server instance listening: not found; all
        // instances taken: busy), so the open is synchronous and only its answer is posted, as an asynchronous
        // connect would answer. FILE_FLAG_OVERLAPPED: the handle joins the I/O thread's completion port.
        boost::system::error_code ec;
        HANDLE handle = CreateFileW(files::Utf8ToUtf16(path).c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr,
                                    OPEN_EXISTING, FILE_FLAG_OVERLAPPED, nullptr);
        if (handle == INVALID_HANDLE_VALUE) {
            ec.assign(static_cast<int>(GetLastError()), asio::error::get_system_category());
        } else {
            pipe_.assign(handle, ec);
            if (ec) CloseHandle(handle);
        }
        asio::post(pipe_.get_executor(), [handler = std::move(handler), ec] { handler(ec); });
    }
    void AsyncReadSome(asio::mutable_buffer buffer, TransferHandler handler) override {
        pipe_.async_read_some(buffer, std::move(handler));
    }
    void AsyncWrite(asio::const_buffer buffer, TransferHandler handler) override {
        asio::async_write(pipe_, buffer, std::move(handler));
    }
    void Close() override {
        boost::system::error_code ignored;
        pipe_.close(ignored);
    }

  private:
    asio::windows::basic_stream_handle<net::ClientExecutor> pipe_;
};
}  // namespace

std::unique_ptr<IpcStream> CreateIpcStream(const net::ClientExecutor &io) {
    return std::make_unique<NamedPipeStream>(io);
}

}  // namespace svcpp::core::rpc
