// Url::Parse: the little URL syntax the core needs (absolute http/https/ws/wss, no user info).
#include <algorithm>
#include <cctype>
#include <charconv>

#include <boost/asio/ip/address_v6.hpp>

#include "net/http.hpp"

namespace svcpp::core::net {

namespace {

std::string Lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::optional<uint16_t> DefaultPort(const std::string &scheme) {
    if (scheme == "http" || scheme == "ws") return 80;
    if (scheme == "https" || scheme == "wss") return 443;
    return std::nullopt;
}

bool IsRegisteredNameChar(unsigned char c) { return std::isalnum(c) || c == '-' || c == '.' || c == '_'; }

// Anything at or below space, or DEL, would corrupt the request line.
bool IsTargetChar(unsigned char c) { return c > 0x20 && c != 0x7f; }

std::optional<uint16_t> ParsePort(std::string_view text) {
    unsigned value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || value == 0 || value > 65535) {
        return std::nullopt;
    }
    return static_cast<uint16_t>(value);
}

}  // namespace

std::optional<Url> Url::Parse(std::string_view text) {
    const auto schemeEnd = text.find("://");
    if (schemeEnd == std::string_view::npos) return std::nullopt;
    Url url;
    url.scheme = Lower(text.substr(0, schemeEnd));
    const auto defaultPort = DefaultPort(url.scheme);
    if (!defaultPort) return std::nullopt;

    const std::string_view rest = text.substr(schemeEnd + 3);
    const auto authorityEnd = std::min(rest.find_first_of("/?#"), rest.size());
    const std::string_view authority = rest.substr(0, authorityEnd);
    std::string_view portText;
    bool hasPort = false;
    if (authority.starts_with('[')) {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        url.host = Lower(authority.substr(1, close - 1));
        // An IPv6 literal as inet_pton reads one (Asio's parser, the same on Windows), without a zone id.
        boost::system::error_code invalid;
        if (url.host.find('%') != std::string::npos) return std::nullopt;
        boost::asio::ip::make_address_v6(url.host, invalid);
        if (invalid) return std::nullopt;
        const std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') return std::nullopt;
            hasPort = true;
            portText = after.substr(1);
        }
    } else {
        const auto colon = authority.find(':');
        url.host = Lower(authority.substr(0, colon));
        if (url.host.empty() || !std::all_of(url.host.begin(), url.host.end(), IsRegisteredNameChar)) {
            return std::nullopt;
        }
        if (colon != std::string_view::npos) {
            hasPort = true;
            portText = authority.substr(colon + 1);
        }
    }
    if (hasPort) {
        const auto port = ParsePort(portText);
        if (!port) return std::nullopt;
        url.port = *port;
    } else {
        url.port = *defaultPort;
    }

    // The fragment never goes on the wire.
    std::string_view target = rest.substr(authorityEnd);
    target = target.substr(0, target.find('#'));
    if (!std::all_of(target.begin(), target.end(), IsTargetChar)) return std::nullopt;
    if (!target.starts_with('/')) url.target = '/';
    url.target += target;
    return url;
}

}  // namespace svcpp::core::net
