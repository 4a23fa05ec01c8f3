#include "net/form.hpp"

namespace svcpp::core::net {

namespace {
bool Unreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~';
}

int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string UrlDecode(std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out += ' ';
        } else if (text[i] == '%' && i + 2 < text.size() && HexValue(text[i + 1]) >= 0 && HexValue(text[i + 2]) >= 0) {
            out += static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}
}  // namespace

std::string UrlEncode(std::string_view text) {
    static const char *hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (Unreserved(c)) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string EncodeForm(const FormFields &fields) {
    std::string out;
    for (const auto &[key, value] : fields) {
        if (!out.empty()) out += '&';
        out += UrlEncode(key) + '=' + UrlEncode(value);
    }
    return out;
}

std::map<std::string, std::string> ParseQuery(std::string_view target) {
    std::map<std::string, std::string> out;
    auto q = target.find('?');
    if (q == std::string_view::npos) return out;
    std::string_view rest = target.substr(q + 1);
    if (auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
    while (!rest.empty()) {
        auto amp = rest.find('&');
        std::string_view pair = rest.substr(0, amp);
        auto eq = pair.find('=');
        std::string key = UrlDecode(pair.substr(0, eq));
        std::string value = eq == std::string_view::npos ? std::string() : UrlDecode(pair.substr(eq + 1));
        if (!key.empty()) out.emplace(std::move(key), std::move(value));
        if (amp == std::string_view::npos) break;
        rest = rest.substr(amp + 1);
    }
    return out;
}

}  // namespace svcpp::core::net
