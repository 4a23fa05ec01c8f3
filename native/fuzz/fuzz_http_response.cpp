// libFuzzer target: bytes a server sends back on an HTTP/1.1 connection.
//
// The client reads responses with Boost.Beast's response parser (body limit 8 MiB, as net/http_client.cpp sets it)
// and turns the message into an HttpResponse (names lower-cased); net/results.cpp then decides the ClientResult
// (status, the error body's code and message, Retry-After) and parses JSON bodies. This target runs the same parser
// configuration over arbitrary bytes, then every result helper over what it produced.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include "net/http.hpp"
#include "net/results.hpp"

namespace http = boost::beast::http;
using namespace svcpp::core;

namespace {
constexpr uint64_t kMaxResponseBodyBytes = 8 * 1024 * 1024;  // net/http_client.cpp's limit
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    http::response_parser<http::string_body> parser;
    parser.body_limit(kMaxResponseBodyBytes);
    // The first byte chooses a HEAD response (no body expected) and how the bytes arrive: whole, or in two reads
    // (the parser's incremental path, as when a response spans TCP segments).
    if (size == 0) return 0;
    const bool head = data[0] & 1;
    const size_t split = size > 2 ? 1 + data[0] % (size - 1) : size;
    parser.skip(head);
    boost::system::error_code ec;
    size_t used = 0;
    auto feed = [&](const uint8_t *p, size_t n) {
        while (n > 0 && !ec && !parser.is_done()) {
            const size_t took = parser.put(boost::asio::buffer(p, n), ec);
            p += took;
            n -= took;
            used += took;
            if (ec == http::error::need_more) {
                ec = {};
                break;
            }
            if (took == 0) break;
        }
    };
    std::string first(reinterpret_cast<const char *>(data + 1), split - 1);
    std::string second(reinterpret_cast<const char *>(data + split), size - split);
    std::string pending = first;
    feed(reinterpret_cast<const uint8_t *>(pending.data()), pending.size());
    if (!ec && !parser.is_done()) {
        // Beast's put() consumes whole structural units only; what it left is re-offered with the next bytes.
        pending = pending.substr(used) + second;
        used = 0;
        feed(reinterpret_cast<const uint8_t *>(pending.data()), pending.size());
    }
    if (!ec && !parser.is_done()) parser.put_eof(ec);  // the server closed the connection
    if (ec || !parser.is_done()) return 0;

    auto message = parser.release();
    net::HttpResponse response;
    response.status = static_cast<int>(message.result_int());
    response.body = std::move(message.body());
    for (const auto &field : message) {
        std::string name(field.name_string());
        for (auto &c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        // Repeated fields fold into one comma-separated value, as the client does.
        auto [it, inserted] = response.headers.emplace(name, std::string(field.value()));
        if (!inserted) it->second += ", " + std::string(field.value());
    }
    (void)net::ResultFromHttp(response);
    (void)net::ResultFromOAuthHttp(response);
    ClientResult result;
    (void)net::JsonBody(response, result);
    return 0;
}
