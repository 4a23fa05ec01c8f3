#include "net/route.hpp"

#include <stdexcept>

namespace svcpp::core::net {

ResolvedRoute Resolve(const Route &route, std::initializer_list<uint64_t> ids) {
    ResolvedRoute out;
    out.routeKey = std::string(route.method) + " ";
    auto id = ids.begin();
    std::string_view rest = route.path;
    while (!rest.empty()) {
        const size_t open = rest.find('{');
        if (open == std::string_view::npos) {
            out.path += rest;
            out.routeKey += rest;
            break;
        }
        const size_t close = rest.find('}', open);
        const std::string_view name = rest.substr(open + 1, close - open - 1);
        if (close == std::string_view::npos || (name != "id" && name != "major"))
            throw std::logic_error("route " + std::string(route.path) + ": a placeholder is {id} or {major}");
        if (id == ids.end()) throw std::logic_error("route " + std::string(route.path) + ": too few ids");
        const std::string value = std::to_string(*id++);
        out.path.append(rest.substr(0, open)).append(value);
        out.routeKey.append(rest.substr(0, open)).append(name == "major" ? value : ":id");
        rest.remove_prefix(close + 1);
    }
    if (id != ids.end()) throw std::logic_error("route " + std::string(route.path) + ": too many ids");
    return out;
}

}  // namespace svcpp::core::net
