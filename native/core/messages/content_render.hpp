// MessageHandle::Content: the raw text with the platform's markup made readable for a game's chat box.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace svcpp::core::messages {

/**
 * User mentions <@id> / <@!id> become "@name" (userName(id), "@unknown-user" when it has none) and custom
 * emoji <:name:id> / <a:name:id> become ":name:". Anything else, malformed markup included, is kept as is.
 */
std::string RenderContent(const std::string &raw, const std::function<std::optional<std::string>(uint64_t)> &userName);

}  // namespace svcpp::core::messages
