#include "net/connect_failure.hpp"

#include <boost/asio/error.hpp>

namespace svcpp::core::net {

NetFailure ConnectFailure(const boost::system::error_code &ec) {
    if (ec == boost::asio::error::connection_refused) return NetFailure::Refused;
    if (ec == boost::asio::error::timed_out) return NetFailure::TimedOut;
    return NetFailure::Transfer;
}

}  // namespace svcpp::core::net
