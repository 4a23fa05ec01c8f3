// libFuzzer target: the URL and form codecs (net/url.cpp, net/form.cpp).
//
// Url::Parse takes whatever a host passes as the platform URL; ParseQuery reads the loopback OAuth2 redirect's query,
// which any local process can send. Beyond not crashing, the codecs must agree with each other: a form built by
// EncodeForm parses back field for field (unique names), and a parsed URL's parts are what the type promises.
#include <cstddef>
#include <cctype>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "net/form.hpp"
#include "net/http.hpp"

using namespace svcpp::core::net;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);

    if (const auto url = Url::Parse(text)) {
        if (url->scheme != "http" && url->scheme != "https" && url->scheme != "ws" && url->scheme != "wss")
            __builtin_trap();
        if (url->target.empty() || url->target[0] != '/') __builtin_trap();
        if (url->port == 0) __builtin_trap();
    }

    (void)ParseQuery(text);

    // The input split at 0x00/0x01 bytes into name, value, name, value... (names made unique): encode, then parse.
    FormFields fields;
    std::set<std::string> names;
    std::string current;
    std::string name;
    bool haveName = false;
    auto flush = [&] {
        if (!haveName) {
            name = current;
            haveName = true;
        } else {
            if (names.insert(name).second) fields.emplace_back(name, current);
            haveName = false;
        }
        current.clear();
    };
    for (char c : text) {
        if (c == '\0' || c == '\x01')
            flush();
        else
            current += c;
    }
    flush();
    const std::string encoded = EncodeForm(fields);
    const auto parsed = ParseQuery("/callback?" + encoded);
    for (const auto &[n, v] : fields) {
        if (n.empty()) continue;  // an empty name is legal to send but has no key to read back by
        const auto it = parsed.find(n);
        if (it == parsed.end() || it->second != v) __builtin_trap();
    }
    // UrlEncode leaves only unreserved characters and %XX.
    for (char c : UrlEncode(text)) {
        const bool ok =
            std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '~' || c == '%';
        if (!ok) __builtin_trap();
    }
    return 0;
}
