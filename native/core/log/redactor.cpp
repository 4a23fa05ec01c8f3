#include "log/redactor.hpp"

#include <array>
#include <cctype>

namespace svcpp::core {

namespace {
constexpr std::string_view kMask = "[redacted]";

void ReplaceAll(std::string &line, std::string_view needle) {
    for (size_t at = line.find(needle); at != std::string::npos; at = line.find(needle, at + kMask.size())) {
        line.replace(at, needle.size(), kMask);
    }
}

bool TokenChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '~' || c == '+' ||
           c == '/' || c == '=' || c == '%';
}

/** Masks the run of token characters that follows each occurrence of prefix. */
void MaskAfter(std::string &line, std::string_view prefix) {
    for (size_t at = line.find(prefix); at != std::string::npos; at = line.find(prefix, at + 1)) {
        size_t start = at + prefix.size();
        size_t end = start;
        while (end < line.size() && TokenChar(line[end])) ++end;
        if (end > start && std::string_view(line).substr(start, end - start) != kMask)
            line.replace(start, end - start, kMask);
    }
}
}  // namespace

void Redactor::Add(std::string_view secret) {
    if (secret.size() < 8) return;
    std::lock_guard lock(mutex_);
    secrets_.emplace(secret);
}

std::string Redactor::Apply(std::string line) const {
    {
        std::lock_guard lock(mutex_);
        for (const auto &secret : secrets_) ReplaceAll(line, secret);
    }
    static constexpr std::array<std::string_view, 12> kPrefixes = {"Bearer ",
                                                                   "Bot ",
                                                                   "token=",
                                                                   "code=",
                                                                   "code_verifier=",
                                                                   "client_secret=",
                                                                   "\"token\":\"",
                                                                   "\"access_token\":\"",
                                                                   "\"refresh_token\":\"",
                                                                   "\"id_token\":\"",
                                                                   "\"external_auth_token\":\"",
                                                                   "\"parent_access_token\":\""};
    for (auto prefix : kPrefixes) MaskAfter(line, prefix);
    return line;
}

}  // namespace svcpp::core
