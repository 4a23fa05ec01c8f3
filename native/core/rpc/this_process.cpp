#include "rpc/this_process.hpp"

namespace svcpp::core::rpc {

std::string ShellQuote(const std::string &word) {
    std::string out = "'";
    for (char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

}  // namespace svcpp::core::rpc
