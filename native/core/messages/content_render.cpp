#include "messages/content_render.hpp"

#include <cctype>

namespace svcpp::core::messages {

namespace {

bool AllDigits(const std::string &s) {
    if (s.empty() || s.size() > 20) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

/** The readable form of one <…> token (without the brackets), or nullopt to keep it. */
std::optional<std::string> RenderToken(const std::string &token,
                                       const std::function<std::optional<std::string>(uint64_t)> &userName) {
    if (token.size() > 1 && token[0] == '@') {
        std::string id = token.substr(token[1] == '!' ? 2 : 1);
        if (!AllDigits(id)) return std::nullopt;
        // Appended rather than "@" + name: GCC 12 warns falsely (-Wrestrict) about operator+(const char *, string &&).
        std::string rendered("@");
        rendered += userName(std::stoull(id)).value_or("unknown-user");
        return rendered;
    }
    std::string rest;
    if (token.rfind(":", 0) == 0)
        rest = token.substr(1);
    else if (token.rfind("a:", 0) == 0)
        rest = token.substr(2);
    else
        return std::nullopt;
    const auto colon = rest.find(':');
    if (colon == std::string::npos || colon == 0 || !AllDigits(rest.substr(colon + 1))) return std::nullopt;
    std::string rendered(":");
    rendered.append(rest, 0, colon);
    rendered += ':';
    return rendered;
}

}  // namespace

std::string RenderContent(const std::string &raw, const std::function<std::optional<std::string>(uint64_t)> &userName) {
    std::string out;
    out.reserve(raw.size());
    size_t i = 0;
    while (i < raw.size()) {
        const size_t open = raw.find('<', i);
        if (open == std::string::npos) break;
        const size_t close = raw.find('>', open + 1);
        if (close == std::string::npos) break;
        out.append(raw, i, open - i);
        if (auto rendered = RenderToken(raw.substr(open + 1, close - open - 1), userName)) {
            out += *rendered;
            i = close + 1;
        } else {
            out += '<';  // not markup: keep the bracket and rescan after it
            i = open + 1;
        }
    }
    out.append(raw, i, std::string::npos);
    return out;
}

}  // namespace svcpp::core::messages
