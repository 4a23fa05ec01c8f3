#include "net/http_headers.hpp"

#include "version.hpp"

namespace svcpp::core::net {

std::string HostHeaderValue(const Url &url) {
    const bool ipv6 = url.host.find(':') != std::string::npos;
    std::string value;
    if (ipv6) value += '[';
    value += url.host;
    if (ipv6) value += ']';
    const uint16_t defaultPort = url.Tls() ? 443 : 80;
    if (url.port != defaultPort) {
        value += ':';
        value += std::to_string(url.port);
    }
    return value;
}

std::string UserAgentValue() {
    return "svcpp/" + std::to_string(version::Major()) + "." + std::to_string(version::Minor()) + "." +
           std::to_string(version::Patch());
}

}  // namespace svcpp::core::net
