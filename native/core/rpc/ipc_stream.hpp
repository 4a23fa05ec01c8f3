// The byte stream to the local client (native/SEMANTICS.md "Local RPC"), one implementation per system:
//   ipc_stream_posix.cpp    a Unix domain socket at a path (…/discord-ipc-{n});
//   ipc_stream_windows.cpp  a named pipe (\\?\pipe\discord-ipc-{n}), opened with CreateFileW for overlapped I/O.
// RpcService drives it on the client's I/O thread; every handler runs there, never inside the call that started it.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/buffer.hpp>
#include <boost/system/error_code.hpp>

#include "net/client_executor.hpp"

namespace svcpp::core::rpc {

class IpcStream {
  public:
    using ConnectHandler = std::function<void(const boost::system::error_code &)>;
    using TransferHandler = std::function<void(const boost::system::error_code &, std::size_t)>;

    virtual ~IpcStream() = default;
    /** Opens the endpoint named by path (a candidate of CandidatePaths); the handler says whether it is open. */
    virtual void AsyncConnect(const std::string &path, ConnectHandler handler) = 0;
    /** Reads what is there, at least one byte (or an error). */
    virtual void AsyncReadSome(boost::asio::mutable_buffer buffer, TransferHandler handler) = 0;
    /** Writes the whole buffer (or an error). */
    virtual void AsyncWrite(boost::asio::const_buffer buffer, TransferHandler handler) = 0;
    /** Closes it; outstanding operations complete with operation_aborted. */
    virtual void Close() = 0;
};

std::unique_ptr<IpcStream> CreateIpcStream(const net::ClientExecutor &io);

}  // namespace svcpp::core::rpc
