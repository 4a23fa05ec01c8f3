#include "messages/validation.hpp"

namespace svcpp::core::validation {

size_t CodePoints(const std::string &utf8) {
    size_t n = 0;
    for (unsigned char c : utf8)
        if ((c & 0xC0) != 0x80) ++n;  // count every byte that is not a continuation byte
    return n;
}

std::optional<std::string> CheckContent(const std::string &content) {
    const size_t n = CodePoints(content);
    if (n == 0) return "message content is empty";
    if (n > kMaxContent)
        return "message content is " + std::to_string(n) + " characters; at most " + std::to_string(kMaxContent) +
               " are allowed";
    return std::nullopt;
}

std::optional<std::string> CheckMetadata(const Properties &metadata, const char *what) {
    if (metadata.size() > kMaxMetadataKeys)
        return std::string(what) + " has " + std::to_string(metadata.size()) + " keys; at most " +
               std::to_string(kMaxMetadataKeys) + " are allowed";
    for (const auto &[key, value] : metadata) {
        const size_t k = CodePoints(key);
        if (k == 0 || k > kMaxMetadataKey)
            return std::string(what) + " key must be 1-" + std::to_string(kMaxMetadataKey) + " characters";
        if (CodePoints(value) > kMaxMetadataValue)
            return std::string(what) + " value of \"" + key + "\" is longer than " + std::to_string(kMaxMetadataValue) +
                   " characters";
    }
    return std::nullopt;
}

std::optional<std::string> CheckSecret(const std::string &secret) {
    const size_t n = CodePoints(secret);
    if (n == 0) return "lobby secret is empty";
    if (n > kMaxSecret)
        return "lobby secret is " + std::to_string(n) + " characters; at most " + std::to_string(kMaxSecret) +
               " are allowed";
    return std::nullopt;
}

std::optional<std::string> CheckHistoryLimit(int32_t &limit) {
    if (limit <= 0) limit = kMaxHistory;
    if (limit > kMaxHistory)
        return "limit " + std::to_string(limit) + " is above the maximum of " + std::to_string(kMaxHistory);
    return std::nullopt;
}

}  // namespace svcpp::core::validation
